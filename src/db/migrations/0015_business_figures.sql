ALTER TABLE "user" ADD COLUMN "is_sample" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "sandbox_balance_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "user_sample_idx" ON "user" USING btree ("id") WHERE "user"."is_sample";--> statement-breakpoint
-- Hand-written (ADR 045): the demo author seeded before this column existed is a sample. The
-- demo subdomain is reserved and the address is the seed's own, so no customer matches both.
UPDATE "user" SET "is_sample" = true WHERE "email" = 'demo@bookplate.invalid' AND "id" IN (SELECT "user_id" FROM "websites" WHERE "subdomain" = 'demo');
