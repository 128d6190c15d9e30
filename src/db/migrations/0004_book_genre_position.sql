ALTER TABLE "book_genres" ADD COLUMN "position" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Genres were read in physical (ctid) order, which PostgreSQL does not keep after rows are
-- deleted and space reused; keep the order each book shows today.
UPDATE "book_genres" AS bg SET "position" = r.pos
FROM (SELECT "id", (row_number() OVER (PARTITION BY "book_id" ORDER BY ctid) - 1)::smallint AS pos FROM "book_genres") AS r
WHERE bg."id" = r."id";
