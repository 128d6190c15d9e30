ALTER TABLE "contact_settings" ADD COLUMN "verified_contact_email" text;--> statement-breakpoint
ALTER TABLE "contact_settings" ADD COLUMN "verify_token_hash" text;--> statement-breakpoint
ALTER TABLE "contact_settings" ADD COLUMN "verify_token_email" text;--> statement-breakpoint
ALTER TABLE "contact_settings" ADD COLUMN "verify_token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_settings" ADD CONSTRAINT "contact_settings_verify_token_hash_unique" UNIQUE("verify_token_hash");