CREATE TABLE "appeals" (
	"id" serial PRIMARY KEY NOT NULL,
	"decision_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"claimed_by" integer,
	"claimed_until" timestamp with time zone,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appeals_decisionId_unique" UNIQUE("decision_id"),
	CONSTRAINT "appeals_status" CHECK ("appeals"."status" in ('open', 'decided')),
	CONSTRAINT "appeals_outcome" CHECK ("appeals"."outcome" is null or "appeals"."outcome" in ('reversed', 'confirmed'))
);
--> statement-breakpoint
CREATE TABLE "member_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"reporter_id" integer NOT NULL,
	"reported_id" integer NOT NULL,
	"kind" text NOT NULL,
	"content_id" bigint DEFAULT 0 NOT NULL,
	"reason" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"claimed_by" integer,
	"claimed_until" timestamp with time zone,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_reports_kind" CHECK ("member_reports"."kind" in ('profile', 'photo', 'message')),
	CONSTRAINT "member_reports_status" CHECK ("member_reports"."status" in ('open', 'actioned', 'dismissed'))
);
--> statement-breakpoint
CREATE TABLE "moderation_decisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"token" text NOT NULL,
	"restriction" text NOT NULL,
	"content_kind" text NOT NULL,
	"content_id" bigint,
	"suspended_until" timestamp with time zone,
	"facts" text DEFAULT '' NOT NULL,
	"ground" text NOT NULL,
	"automated" boolean DEFAULT false NOT NULL,
	"report_id" integer,
	"notice_id" integer,
	"staff_id" integer,
	"removed" jsonb,
	"status" text DEFAULT 'in_force' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_decisions_token_unique" UNIQUE("token"),
	CONSTRAINT "moderation_decisions_restriction" CHECK ("moderation_decisions"."restriction" in ('photo_removed', 'text_removed', 'message_hidden', 'suspended', 'banned')),
	CONSTRAINT "moderation_decisions_status" CHECK ("moderation_decisions"."status" in ('in_force', 'reversed'))
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "claimed_by" integer;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_claimed_by_staff_members_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decided_by_staff_members_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_reports" ADD CONSTRAINT "member_reports_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_reports" ADD CONSTRAINT "member_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_reports" ADD CONSTRAINT "member_reports_reported_id_users_id_fk" FOREIGN KEY ("reported_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_reports" ADD CONSTRAINT "member_reports_claimed_by_staff_members_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_reports" ADD CONSTRAINT "member_reports_decided_by_staff_members_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_report_id_member_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."member_reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appeals_queue" ON "appeals" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_reports_once" ON "member_reports" USING btree ("reporter_id","reported_id","kind","content_id");--> statement-breakpoint
CREATE INDEX "member_reports_queue" ON "member_reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "member_reports_reported" ON "member_reports" USING btree ("reported_id","created_at");--> statement-breakpoint
CREATE INDEX "moderation_decisions_member" ON "moderation_decisions" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "moderation_decisions_site" ON "moderation_decisions" USING btree ("site_id","created_at");--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_claimed_by_staff_members_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;