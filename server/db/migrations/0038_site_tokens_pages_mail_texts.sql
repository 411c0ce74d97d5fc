CREATE TABLE "site_mail_texts" (
	"site_id" integer NOT NULL,
	"language" text NOT NULL,
	"kind" text NOT NULL,
	"subject" text,
	"intro" text,
	"button" text,
	"note" text,
	CONSTRAINT "site_mail_texts_site_id_language_kind_pk" PRIMARY KEY("site_id","language","kind")
);
--> statement-breakpoint
CREATE TABLE "site_page_texts" (
	"site_id" integer NOT NULL,
	"language" text NOT NULL,
	"page" text NOT NULL,
	"markdown" text NOT NULL,
	"version_date" timestamp with time zone NOT NULL,
	CONSTRAINT "site_page_texts_site_id_language_page_pk" PRIMARY KEY("site_id","language","page")
);
--> statement-breakpoint
CREATE TABLE "site_page_tokens" (
	"site_id" integer NOT NULL,
	"token" text NOT NULL,
	"lander" text,
	"slug" text,
	"page" text,
	"tracking" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_page_tokens_site_id_token_pk" PRIMARY KEY("site_id","token"),
	CONSTRAINT "site_page_tokens_target" CHECK (("site_page_tokens"."lander" is null) <> ("site_page_tokens"."page" is null))
);
--> statement-breakpoint
ALTER TABLE "site_mail_texts" ADD CONSTRAINT "site_mail_texts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_page_texts" ADD CONSTRAINT "site_page_texts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_page_tokens" ADD CONSTRAINT "site_page_tokens_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;