CREATE TABLE "discount_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer,
	"code" text NOT NULL,
	"kind" text DEFAULT 'code' NOT NULL,
	"percent_bp" integer NOT NULL,
	"minimums" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"country" text,
	"validity" text DEFAULT 'once-per-user' NOT NULL,
	"user_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_percent" CHECK ("discount_codes"."percent_bp" between 1 and 9000),
	CONSTRAINT "discount_codes_kind" CHECK ("discount_codes"."kind" in ('code', 'welcome', 'time_bonus', 'personal')),
	CONSTRAINT "discount_codes_validity" CHECK ("discount_codes"."validity" in ('once-per-user', 'unlimited')),
	CONSTRAINT "discount_codes_upper" CHECK ("discount_codes"."code" = upper("discount_codes"."code"))
);
--> statement-breakpoint
CREATE TABLE "discount_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_id" integer NOT NULL,
	"order_id" text NOT NULL,
	"once_per_user" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_redemptions_orderId_unique" UNIQUE("order_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "original_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_bp" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_code_id_discount_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."discount_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code" ON "discount_codes" USING btree (coalesce("site_id", 0),"code");--> statement-breakpoint
CREATE INDEX "discount_codes_user" ON "discount_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discount_redemptions_once" ON "discount_redemptions" USING btree ("user_id","code_id") WHERE once_per_user;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The welcome time bonus exists on every site (spec section 4): 25%, once per user, within 4 hours of sign-up.
INSERT INTO "discount_codes" ("site_id", "code", "kind", "percent_bp", "validity") VALUES (NULL, 'TIMEBONUS25', 'time_bonus', 2500, 'once-per-user');
