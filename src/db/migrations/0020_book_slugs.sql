CREATE TABLE "book_slugs" (
	"user_id" text NOT NULL,
	"slug" text NOT NULL,
	"book_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "slug" text;--> statement-breakpoint
-- Hand-written (ADR 051): existing books get an address from their title, as the app's slugify
-- makes it (common Latin accents folded by translate), "book" for a title with nothing to keep. A
-- second book of one title by one author, in the site's order, takes -2, -3…, or a piece of its id
-- when another of the author's titles already makes that address.
WITH b AS (
  SELECT id, user_id, sort_order, created_at,
    coalesce(nullif(trim(both '-' from left(regexp_replace(lower(translate(title,
      'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
      'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy')), '[^a-z0-9]+', '-', 'g'), 80)), ''), 'book') AS base
  FROM "books"
), r AS (
  SELECT id, user_id, base, row_number() OVER (PARTITION BY user_id, base ORDER BY sort_order, created_at, id) AS n FROM b
)
UPDATE "books" AS t SET "slug" = CASE
  WHEN r.n = 1 THEN r.base
  WHEN EXISTS (SELECT 1 FROM b o WHERE o.user_id = r.user_id AND o.base = r.base || '-' || r.n) THEN r.base || '-' || left(r.id::text, 8)
  ELSE r.base || '-' || r.n END
FROM r WHERE t.id = r.id;--> statement-breakpoint
ALTER TABLE "books" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "book_slugs" ADD CONSTRAINT "book_slugs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_slugs" ADD CONSTRAINT "book_slugs_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "book_slugs_user_slug_idx" ON "book_slugs" USING btree ("user_id","slug");--> statement-breakpoint
CREATE INDEX "book_slugs_book_idx" ON "book_slugs" USING btree ("book_id");--> statement-breakpoint
CREATE UNIQUE INDEX "books_user_slug_idx" ON "books" USING btree ("user_id","slug");