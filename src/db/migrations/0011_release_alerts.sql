CREATE TABLE "release_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"book_id" uuid NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirm_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	CONSTRAINT "release_alerts_status_check" CHECK ("release_alerts"."status" in ('pending', 'confirmed'))
);
--> statement-breakpoint
ALTER TABLE "release_alerts" ADD CONSTRAINT "release_alerts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_alerts" ADD CONSTRAINT "release_alerts_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "release_alerts_book_email_idx" ON "release_alerts" USING btree ("book_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "release_alerts_token_idx" ON "release_alerts" USING btree ("confirm_token");