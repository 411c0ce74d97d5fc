CREATE UNIQUE INDEX "photos_filename" ON "photos" USING btree ("filename");--> statement-breakpoint
CREATE UNIQUE INDEX "photos_thumb_filename" ON "photos" USING btree ("thumb_filename");--> statement-breakpoint
CREATE INDEX "photos_pending" ON "photos" USING btree ("status","created_at");