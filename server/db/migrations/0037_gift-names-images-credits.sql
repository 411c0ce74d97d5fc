ALTER TABLE "gifts" ADD COLUMN "names" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "gifts" ADD COLUMN "image" text;--> statement-breakpoint
ALTER TABLE "gifts" ADD COLUMN "credits" integer;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_image_unique" UNIQUE("image");