CREATE TABLE "newsletter_link_readers" (
	"link_id" uuid NOT NULL,
	"reader" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"newsletter_id" uuid NOT NULL,
	"url" text NOT NULL,
	"position" integer NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"readers" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "count_clicks" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_link_readers" ADD CONSTRAINT "newsletter_link_readers_link_id_newsletter_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."newsletter_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_links" ADD CONSTRAINT "newsletter_links_newsletter_id_newsletters_id_fk" FOREIGN KEY ("newsletter_id") REFERENCES "public"."newsletters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_link_readers_link_reader_idx" ON "newsletter_link_readers" USING btree ("link_id","reader");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_links_newsletter_url_idx" ON "newsletter_links" USING btree ("newsletter_id","url");