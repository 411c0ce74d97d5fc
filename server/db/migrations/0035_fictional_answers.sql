CREATE TABLE "fictional_answer_claims" (
	"conversation_id" integer PRIMARY KEY NOT NULL,
	"staff_id" integer NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fictional_notes" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "answered_by" integer;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "hide_fictional_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "hide_fictional" boolean;--> statement-breakpoint
ALTER TABLE "fictional_answer_claims" ADD CONSTRAINT "fictional_answer_claims_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fictional_answer_claims" ADD CONSTRAINT "fictional_answer_claims_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fictional_notes" ADD CONSTRAINT "fictional_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_answered_by_staff_members_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;