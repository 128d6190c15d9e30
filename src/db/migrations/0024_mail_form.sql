ALTER TABLE "release_alerts" DROP CONSTRAINT "release_alerts_status_check";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "from_name" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "release_alerts" ADD CONSTRAINT "release_alerts_status_check" CHECK ("release_alerts"."status" in ('pending', 'confirmed', 'unsubscribed'));