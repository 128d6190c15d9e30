ALTER TABLE "profiles" ALTER COLUMN "bio" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "profiles" ALTER COLUMN "genre" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "show_when_empty" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Hand-written data fix (ADR 052): the old column default was placeholder copy, never the author's words.
UPDATE "profiles" SET "bio" = '' WHERE "bio" = 'Author bio coming soon...';
--> statement-breakpoint
-- Hand-written data fix (ADR 052): a site whose own sign-up form already has subscribers, and the
-- demo, keep their Newsletter page (readers chose it; the author kept it on).
UPDATE "websites" SET "show_when_empty" = '["newsletter"]'::jsonb WHERE "subdomain" = 'demo' OR EXISTS (SELECT 1 FROM "newsletter_subscribers" s WHERE s."user_id" = "websites"."user_id");
