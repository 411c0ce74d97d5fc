ALTER TABLE "users" ALTER COLUMN "email_opt_out" SET DEFAULT '["special_offers","newsletter"]'::jsonb;--> statement-breakpoint
-- No member ever gave consent to marketing mail (it was on by default): every existing member starts opted out (decision 068).
UPDATE "users" SET "email_opt_out" = (SELECT jsonb_agg(DISTINCT c) FROM jsonb_array_elements_text("email_opt_out" || '["special_offers","newsletter"]'::jsonb) AS c);
