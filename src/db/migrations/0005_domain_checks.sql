ALTER TABLE "domain_verifications" ADD COLUMN "last_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domain_verifications" ADD COLUMN "last_problem" text;--> statement-breakpoint
ALTER TABLE "domain_verifications" ADD COLUMN "last_message" text;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_verifications_verified_domain_idx" ON "domain_verifications" USING btree (lower("domain")) WHERE "domain_verifications"."verified";