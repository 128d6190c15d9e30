CREATE TABLE "book_store_clickers" (
	"book_id" uuid NOT NULL,
	"date" date NOT NULL,
	"reader" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "book_store_clickers" ADD CONSTRAINT "book_store_clickers_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "book_store_clickers_book_date_reader_idx" ON "book_store_clickers" USING btree ("book_id","date","reader");