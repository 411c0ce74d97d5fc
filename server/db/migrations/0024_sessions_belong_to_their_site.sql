DROP INDEX "users_email_unique";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "site_id" integer;--> statement-breakpoint
-- Sessions made before: each belongs to its member's site, the only site an account can sign in to.
UPDATE "sessions" SET "site_id" = "users"."site_id" FROM "users" WHERE "users"."id" = "sessions"."user_id";--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "site_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_site_email_unique" ON "users" USING btree ("site_id",lower("email"));
