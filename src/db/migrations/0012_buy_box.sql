CREATE TABLE "book_store_stats" (
	"book_id" uuid NOT NULL,
	"date" date NOT NULL,
	"store" text NOT NULL,
	"shown" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "retailer_links" ADD COLUMN "storefront" text;--> statement-breakpoint
ALTER TABLE "retailer_links" ADD COLUMN "price_minor" integer;--> statement-breakpoint
ALTER TABLE "retailer_links" ADD COLUMN "currency" text;--> statement-breakpoint
UPDATE "retailer_links" SET "storefront" = CASE lower(regexp_replace(substring("retailer_url" from '^[A-Za-z]+://([^/:?#]+)'), '^www\.', ''))
	WHEN 'amazon.com' THEN 'amazon-us' WHEN 'amazon.co.uk' THEN 'amazon-uk' WHEN 'amazon.de' THEN 'amazon-de'
	WHEN 'amazon.fr' THEN 'amazon-fr' WHEN 'amazon.es' THEN 'amazon-es' WHEN 'amazon.it' THEN 'amazon-it'
	WHEN 'amazon.nl' THEN 'amazon-nl' WHEN 'amazon.ca' THEN 'amazon-ca' WHEN 'amazon.com.au' THEN 'amazon-au'
	WHEN 'amazon.in' THEN 'amazon-in' WHEN 'books.apple.com' THEN 'apple' WHEN 'kobo.com' THEN 'kobo'
	WHEN 'barnesandnoble.com' THEN 'barnes-noble' WHEN 'play.google.com' THEN 'google-play'
	WHEN 'bookshop.org' THEN 'bookshop-us' WHEN 'uk.bookshop.org' THEN 'bookshop-uk' END;--> statement-breakpoint
ALTER TABLE "book_store_stats" ADD CONSTRAINT "book_store_stats_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "book_store_stats_book_date_store_idx" ON "book_store_stats" USING btree ("book_id","date","store");--> statement-breakpoint
ALTER TABLE "retailer_links" ADD CONSTRAINT "retailer_links_storefront_check" CHECK ("retailer_links"."storefront" in ('amazon-us', 'amazon-uk', 'amazon-de', 'amazon-fr', 'amazon-es', 'amazon-it', 'amazon-nl', 'amazon-ca', 'amazon-au', 'amazon-in', 'apple', 'kobo', 'barnes-noble', 'google-play', 'bookshop-us', 'bookshop-uk'));--> statement-breakpoint
ALTER TABLE "retailer_links" ADD CONSTRAINT "retailer_links_currency_check" CHECK ("retailer_links"."currency" in ('USD', 'GBP', 'EUR', 'CAD', 'AUD', 'INR'));--> statement-breakpoint
ALTER TABLE "retailer_links" ADD CONSTRAINT "retailer_links_price_check" CHECK (("retailer_links"."price_minor" is null) = ("retailer_links"."currency" is null) and "retailer_links"."price_minor" >= 0);