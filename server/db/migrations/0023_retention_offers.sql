CREATE TABLE "retention_offers" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"code_id" integer NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_offers_codeId_unique" UNIQUE("code_id")
);
--> statement-breakpoint
ALTER TABLE "retention_offers" ADD CONSTRAINT "retention_offers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_offers" ADD CONSTRAINT "retention_offers_code_id_discount_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."discount_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Offers made before this table (a new code at every request): each member keeps one as their offer, one they
-- already used if any, else the earliest; every other personal code of theirs stops working.
INSERT INTO "retention_offers" ("user_id", "code_id", "created_at")
SELECT DISTINCT ON (c."user_id") c."user_id", c."id", c."created_at" FROM "discount_codes" c
WHERE c."kind" = 'personal' AND c."user_id" IS NOT NULL
ORDER BY c."user_id", EXISTS (SELECT 1 FROM "discount_redemptions" r WHERE r."code_id" = c."id") DESC, c."id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "discount_codes" SET "active" = false
WHERE "kind" = 'personal' AND "id" NOT IN (SELECT "code_id" FROM "retention_offers");
