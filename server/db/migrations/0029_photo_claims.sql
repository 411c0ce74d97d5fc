ALTER TABLE "chat_photos" ADD COLUMN "claimed_by" integer;--> statement-breakpoint
ALTER TABLE "chat_photos" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "claimed_by" integer;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_photos" ADD CONSTRAINT "chat_photos_claimed_by_staff_members_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_claimed_by_staff_members_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;