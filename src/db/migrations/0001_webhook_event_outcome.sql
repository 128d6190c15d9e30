ALTER TABLE "processed_webhook_events" ADD COLUMN "outcome" text DEFAULT 'applied' NOT NULL;--> statement-breakpoint
ALTER TABLE "processed_webhook_events" ADD COLUMN "detail" text;--> statement-breakpoint
ALTER TABLE "processed_webhook_events" ADD CONSTRAINT "processed_webhook_events_outcome_check" CHECK ("processed_webhook_events"."outcome" in ('applied', 'unprocessable'));