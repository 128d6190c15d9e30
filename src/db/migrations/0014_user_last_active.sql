ALTER TABLE "user" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "user_last_active_idx" ON "user" USING btree ("last_active_at");--> statement-breakpoint
-- Hand-written backfill (keep when regenerating): accounts that have a session today were active
-- when it was last refreshed; accounts without one are unknown, so they start uncounted.
UPDATE "user" u SET "last_active_at" = s.last_used FROM (SELECT "user_id", max("updated_at") AS last_used FROM "session" GROUP BY "user_id") s WHERE s."user_id" = u."id";
