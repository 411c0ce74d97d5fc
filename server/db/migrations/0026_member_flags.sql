CREATE TABLE "member_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"hits" integer DEFAULT 1 NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	CONSTRAINT "member_flags_kind" CHECK ("member_flags"."kind" in ('off_site_contact', 'money_request', 'repeated_text', 'mass_messaging', 'many_reports'))
);
--> statement-breakpoint
ALTER TABLE "member_flags" ADD CONSTRAINT "member_flags_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_flags" ADD CONSTRAINT "member_flags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_flags" ADD CONSTRAINT "member_flags_resolved_by_staff_members_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_flags_open" ON "member_flags" USING btree ("user_id","kind") WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX "member_flags_queue" ON "member_flags" USING btree ("site_id","first_at") WHERE resolved_at is null;