CREATE SEQUENCE "public"."invoice_numbers" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1000 CACHE 1;--> statement-breakpoint
CREATE TABLE "spend_caps" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"period" text,
	"credits" integer,
	"pending_period" text,
	"pending_credits" integer,
	"pending_from" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "spend_caps_period" CHECK ("spend_caps"."period" in ('day', 'month') and "spend_caps"."pending_period" in ('day', 'month')),
	CONSTRAINT "spend_caps_positive" CHECK ("spend_caps"."credits" > 0 and "spend_caps"."pending_credits" > 0)
);
--> statement-breakpoint
DROP INDEX "orders_user";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "withdrawal_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "spend_caps" ADD CONSTRAINT "spend_caps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_user" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_invoiceNumber_unique" UNIQUE("invoice_number");