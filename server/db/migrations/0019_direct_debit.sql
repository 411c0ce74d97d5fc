CREATE TABLE "blocked_payment_identifiers" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer,
	"kind" text NOT NULL,
	"value_hash" text NOT NULL,
	"masked" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_payment_identifiers_kind" CHECK ("blocked_payment_identifiers"."kind" in ('iban', 'phone'))
);
--> statement-breakpoint
CREATE TABLE "direct_debit_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"discount_code" text,
	"account_holder" text NOT NULL,
	"iban" text NOT NULL,
	"street" text NOT NULL,
	"house_number" text NOT NULL,
	"zip" text NOT NULL,
	"city" text NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'awaiting_code' NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "direct_debit_requests_status" CHECK ("direct_debit_requests"."status" in ('awaiting_code', 'verified', 'confirmed', 'locked'))
);
--> statement-breakpoint
ALTER TABLE "blocked_payment_identifiers" ADD CONSTRAINT "blocked_payment_identifiers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_requests" ADD CONSTRAINT "direct_debit_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_requests" ADD CONSTRAINT "direct_debit_requests_package_id_credit_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."credit_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_requests" ADD CONSTRAINT "direct_debit_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blocked_payment_identifiers_value" ON "blocked_payment_identifiers" USING btree (coalesce("site_id", 0),"kind","value_hash");--> statement-breakpoint
CREATE INDEX "direct_debit_requests_user" ON "direct_debit_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "direct_debit_requests_phone" ON "direct_debit_requests" USING btree ("phone","created_at");