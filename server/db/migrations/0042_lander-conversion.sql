CREATE TABLE "report_lander_days" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"lander" text NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"activations" integer DEFAULT 0 NOT NULL,
	"first_purchases" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_lander_days_site_id_day_lander_pk" PRIMARY KEY("site_id","day","lander")
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "geoip_preselect" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "geoip_default_country" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "lander" text;--> statement-breakpoint
ALTER TABLE "report_lander_days" ADD CONSTRAINT "report_lander_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;