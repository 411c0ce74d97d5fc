ALTER TABLE "photos" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Existing photos keep the order members saw: the main photo first, then the rest from the oldest.
UPDATE "photos" AS p SET "position" = o.n FROM (
	SELECT ph.id, (row_number() OVER (PARTITION BY ph.user_id ORDER BY coalesce(ph.id = pr.main_photo_id, false) DESC, ph.created_at, ph.id) - 1)::int AS n
	FROM "photos" ph LEFT JOIN "profiles" pr ON pr.user_id = ph.user_id
) AS o WHERE p.id = o.id;
