CREATE TABLE "book_series_slugs" (
	"user_id" text NOT NULL,
	"slug" text NOT NULL,
	"series_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "book_series_slugs" ADD CONSTRAINT "book_series_slugs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_series_slugs" ADD CONSTRAINT "book_series_slugs_series_id_book_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."book_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "book_series_slugs_user_slug_idx" ON "book_series_slugs" USING btree ("user_id","slug");--> statement-breakpoint
CREATE INDEX "book_series_slugs_series_idx" ON "book_series_slugs" USING btree ("series_id");