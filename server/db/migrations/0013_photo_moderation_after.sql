ALTER TABLE "chat_photos" ADD COLUMN "reviewed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "reviewed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "photo_moderation" text DEFAULT 'after' NOT NULL;--> statement-breakpoint
CREATE INDEX "chat_photos_unreviewed" ON "chat_photos" USING btree ("reviewed","created_at");--> statement-breakpoint
CREATE INDEX "photos_unreviewed" ON "photos" USING btree ("reviewed","created_at");--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_photo_moderation" CHECK ("sites"."photo_moderation" in ('before', 'after'));--> statement-breakpoint
UPDATE "photos" SET "reviewed" = true WHERE "status" <> 'pending';--> statement-breakpoint
UPDATE "chat_photos" SET "reviewed" = true WHERE "status" <> 'pending';--> statement-breakpoint
UPDATE "chat_photos" SET "status" = 'active' WHERE "status" = 'pending';
