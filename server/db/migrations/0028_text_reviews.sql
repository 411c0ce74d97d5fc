CREATE TABLE "text_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"field" text NOT NULL,
	"old_text" text,
	"new_text" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"claimed_by" integer,
	"claimed_until" timestamp with time zone,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "text_reviews_field" CHECK ("text_reviews"."field" in ('name', 'about')),
	CONSTRAINT "text_reviews_status" CHECK ("text_reviews"."status" in ('open', 'approved', 'removed'))
);
--> statement-breakpoint
ALTER TABLE "text_reviews" ADD CONSTRAINT "text_reviews_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "text_reviews" ADD CONSTRAINT "text_reviews_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "text_reviews" ADD CONSTRAINT "text_reviews_claimed_by_staff_members_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "text_reviews" ADD CONSTRAINT "text_reviews_decided_by_staff_members_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "text_reviews_open" ON "text_reviews" USING btree ("member_id","field") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "text_reviews_queue" ON "text_reviews" USING btree ("status","created_at","id");