CREATE TABLE "payment_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer,
	"company_id" integer,
	"provider" text NOT NULL,
	"api_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_accounts_owner" CHECK (("payment_accounts"."site_id" is null) <> ("payment_accounts"."company_id" is null)),
	CONSTRAINT "payment_accounts_provider" CHECK ("payment_accounts"."provider" in ('test', 'mollie'))
);
--> statement-breakpoint
CREATE TABLE "payment_customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"account_key" integer DEFAULT 0 NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_mandates" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"account_id" integer,
	"customer_id" text NOT NULL,
	"mandate_id" text NOT NULL,
	"method" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_mandates" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"method" text NOT NULL,
	"details" text NOT NULL,
	"status" text DEFAULT 'valid' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "checkout_url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sequence_type" text DEFAULT 'oneoff' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_checkouts" ADD COLUMN "sequence_type" text DEFAULT 'oneoff' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_checkouts" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "test_checkouts" ADD COLUMN "mandate_id" text;--> statement-breakpoint
ALTER TABLE "payment_accounts" ADD CONSTRAINT "payment_accounts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_accounts" ADD CONSTRAINT "payment_accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_mandates" ADD CONSTRAINT "payment_mandates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_mandates" ADD CONSTRAINT "payment_mandates_account_id_payment_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."payment_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_accounts_site" ON "payment_accounts" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_accounts_company" ON "payment_accounts" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_customers_user" ON "payment_customers" USING btree ("user_id","provider","account_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_mandates_ref" ON "payment_mandates" USING btree ("provider","mandate_id");--> statement-breakpoint
CREATE INDEX "payment_mandates_user" ON "payment_mandates" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_payment_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."payment_accounts"("id") ON DELETE no action ON UPDATE no action;