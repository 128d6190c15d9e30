ALTER TABLE "release_alerts" DROP CONSTRAINT "release_alerts_status_check";--> statement-breakpoint
DROP INDEX "mail_outbox_due_idx";--> statement-breakpoint
DROP INDEX "mail_outbox_bulk_due_idx";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "release_alert_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_release_alert_id_release_alerts_id_fk" FOREIGN KEY ("release_alert_id") REFERENCES "public"."release_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "release_alerts_due_idx" ON "release_alerts" USING btree ("book_id") WHERE "release_alerts"."status" = 'confirmed' and "release_alerts"."notified_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_release_alert_idx" ON "mail_outbox" USING btree ("release_alert_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" in ('queued', 'sending') and "mail_outbox"."newsletter_id" is null and "mail_outbox"."release_alert_id" is null;--> statement-breakpoint
CREATE INDEX "mail_outbox_bulk_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" in ('queued', 'sending') and ("mail_outbox"."newsletter_id" is not null or "mail_outbox"."release_alert_id" is not null);--> statement-breakpoint
ALTER TABLE "release_alerts" ADD CONSTRAINT "release_alerts_status_check" CHECK ("release_alerts"."status" in ('pending', 'confirmed', 'unsubscribed', 'bounced'));