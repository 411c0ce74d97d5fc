CREATE TABLE "chat_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"sender_id" integer NOT NULL,
	"filename" text NOT NULL,
	"thumb_filename" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_photos_filename_unique" UNIQUE("filename"),
	CONSTRAINT "chat_photos_thumbFilename_unique" UNIQUE("thumb_filename")
);
--> statement-breakpoint
CREATE TABLE "gifts" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "gifts_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "kind" text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "gift_id" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "chat_photo_id" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "filtered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "minimum_message_costs" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "word_filter" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_photos" ADD CONSTRAINT "chat_photos_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_photos" ADD CONSTRAINT "chat_photos_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_photos_pending" ON "chat_photos" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_gift_id_gifts_id_fk" FOREIGN KEY ("gift_id") REFERENCES "public"."gifts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_chat_photo_id_chat_photos_id_fk" FOREIGN KEY ("chat_photo_id") REFERENCES "public"."chat_photos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
INSERT INTO "gifts" ("slug", "sort") VALUES ('rose', 1), ('heart', 2), ('kiss', 3), ('chocolates', 4), ('coffee', 5), ('champagne', 6), ('teddy', 7), ('cupcake', 8), ('bouquet', 9), ('star', 10), ('sun', 11), ('diamond', 12);
