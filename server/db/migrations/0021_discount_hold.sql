ALTER TABLE "orders" ADD COLUMN "discount_hold_id" integer;--> statement-breakpoint
-- Orders placed before holds existed: the earliest completed (else open or pending) order per member and
-- once-per-user code holds it; two that both completed before (the old limit) leave the later one without.
UPDATE "orders" SET "discount_hold_id" = "discount_code_id" WHERE "id" IN (
	SELECT DISTINCT ON (o."user_id", o."discount_code_id") o."id" FROM "orders" o
	JOIN "discount_codes" c ON c."id" = o."discount_code_id"
	WHERE c."validity" = 'once-per-user' AND o."status" IN ('open', 'pending', 'completed')
	ORDER BY o."user_id", o."discount_code_id", (o."status" = 'completed') DESC, o."created_at"
);--> statement-breakpoint
CREATE UNIQUE INDEX "orders_discount_hold" ON "orders" USING btree ("user_id","discount_hold_id");
