ALTER TABLE "sites" ADD COLUMN "theme_primary" text DEFAULT '#0f8b8d' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "theme_secondary" text DEFAULT '#c2187a' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "theme_dark" text DEFAULT '#2b1740' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "logo_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_theme_colours" CHECK ("sites"."theme_primary" ~ '^#[0-9a-f]{6}$' and "sites"."theme_secondary" ~ '^#[0-9a-f]{6}$' and "sites"."theme_dark" ~ '^#[0-9a-f]{6}$');