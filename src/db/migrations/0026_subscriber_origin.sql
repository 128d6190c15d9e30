ALTER TABLE "newsletter_subscribers" ADD COLUMN "signup_page" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "imported_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "newsletter_subscribers_user_created_idx" ON "newsletter_subscribers" USING btree ("user_id","created_at");