CREATE TABLE "report_active_days" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"previous_day" date,
	"members" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_builds" (
	"day" date PRIMARY KEY NOT NULL,
	"built_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_days" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"activations" integer DEFAULT 0 NOT NULL,
	"first_purchases" integer DEFAULT 0 NOT NULL,
	"messages_paid" integer DEFAULT 0 NOT NULL,
	"messages_free" integer DEFAULT 0 NOT NULL,
	"messages_to_fictional" integer DEFAULT 0 NOT NULL,
	"gifts" integer DEFAULT 0 NOT NULL,
	"gifts_to_fictional" integer DEFAULT 0 NOT NULL,
	"page_bounces" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_days_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
CREATE TABLE "report_member_days" (
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "report_member_days_site_id_user_id_day_pk" PRIMARY KEY("site_id","user_id","day")
);
--> statement-breakpoint
CREATE TABLE "report_money_days" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"paymentmethod" text NOT NULL,
	"country" text NOT NULL,
	"package_id" integer NOT NULL,
	"orders" integer NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "report_money_days_site_id_day_kind_currency_paymentmethod_country_package_id_pk" PRIMARY KEY("site_id","day","kind","currency","paymentmethod","country","package_id")
);
--> statement-breakpoint
ALTER TABLE "report_active_days" ADD CONSTRAINT "report_active_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_days" ADD CONSTRAINT "report_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_member_days" ADD CONSTRAINT "report_member_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_money_days" ADD CONSTRAINT "report_money_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_active_days_site_day" ON "report_active_days" USING btree ("site_id","day");--> statement-breakpoint
CREATE INDEX "report_member_days_day" ON "report_member_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "messages_created" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "order_refunds_created" ON "order_refunds" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_completed" ON "orders" USING btree ("completed_at") WHERE "orders"."status" = 'completed';--> statement-breakpoint
CREATE INDEX "payments_charged_back" ON "payments" USING btree ("updated_at") WHERE "payments"."status" = 'charged_back';--> statement-breakpoint
CREATE INDEX "sessions_created" ON "sessions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "users_signup_date" ON "users" USING btree ("signup_date");--> statement-breakpoint
CREATE INDEX "users_activated_at" ON "users" USING btree ("activated_at");