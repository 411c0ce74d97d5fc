CREATE TABLE "shared_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "shared_cache_expires" ON "shared_cache" USING btree ("expires_at");