CREATE TABLE "notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"reference" text NOT NULL,
	"follow_token" text NOT NULL,
	"kind" text NOT NULL,
	"content_ref" text NOT NULL,
	"reason" text NOT NULL,
	"explanation" text DEFAULT '' NOT NULL,
	"reporter_name" text DEFAULT '' NOT NULL,
	"reporter_email" text NOT NULL,
	"reporter_user_id" integer,
	"language" text DEFAULT 'en' NOT NULL,
	"bona_fide" boolean NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"decision" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notices_reference_unique" UNIQUE("reference"),
	CONSTRAINT "notices_kind" CHECK ("notices"."kind" in ('profile', 'photo', 'message', 'other')),
	CONSTRAINT "notices_status" CHECK ("notices"."status" in ('received', 'in_review', 'removed', 'no_action')),
	CONSTRAINT "notices_reason" CHECK ("notices"."reason" in ('illegal', 'fake_or_scam', 'minor', 'harassment', 'intellectual_property', 'other'))
);
--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_reporter_user_id_users_id_fk" FOREIGN KEY ("reporter_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notices_site_status" ON "notices" USING btree ("site_id","status","created_at");