CREATE TABLE "book_series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "book_series" ADD CONSTRAINT "book_series_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "book_series_user_name_idx" ON "book_series" USING btree ("user_id",lower(btrim("name")));--> statement-breakpoint
-- Every series name a book already uses gets its row (the first spelling by position wins).
INSERT INTO "book_series" ("user_id", "name")
SELECT DISTINCT ON ("user_id", lower(btrim("series_name"))) "user_id", btrim("series_name")
FROM "books"
WHERE btrim(coalesce("series_name", '')) <> ''
ORDER BY "user_id", lower(btrim("series_name")), "sort_order", "created_at", "id";
