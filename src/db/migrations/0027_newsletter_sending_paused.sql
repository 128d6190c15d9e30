ALTER TABLE "user" ADD COLUMN "newsletter_sending_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "newsletter_sending_paused_reason" text;