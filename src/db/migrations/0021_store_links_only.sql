-- Hand-written data step (issue 30): a book's own "Amazon buy link" becomes its first store link,
-- unless the same address is already one of its links; then the column goes.
INSERT INTO "retailer_links" ("book_id", "retailer_name", "retailer_url", "storefront", "sort_order")
SELECT b."id",
	CASE s."storefront"
		WHEN 'amazon-us' THEN 'Amazon.com' WHEN 'amazon-uk' THEN 'Amazon.co.uk' WHEN 'amazon-de' THEN 'Amazon.de'
		WHEN 'amazon-fr' THEN 'Amazon.fr' WHEN 'amazon-es' THEN 'Amazon.es' WHEN 'amazon-it' THEN 'Amazon.it'
		WHEN 'amazon-nl' THEN 'Amazon.nl' WHEN 'amazon-ca' THEN 'Amazon.ca' WHEN 'amazon-au' THEN 'Amazon.com.au'
		WHEN 'amazon-in' THEN 'Amazon.in' ELSE 'Amazon' END,
	btrim(b."amazon_url"),
	s."storefront",
	coalesce((SELECT min(l."sort_order") FROM "retailer_links" l WHERE l."book_id" = b."id"), 1) - 1
FROM "books" b
CROSS JOIN LATERAL (SELECT CASE lower(regexp_replace(substring(btrim(b."amazon_url") from '^[A-Za-z]+://([^/:?#]+)'), '^(www|smile)\.', ''))
	WHEN 'amazon.com' THEN 'amazon-us' WHEN 'amazon.co.uk' THEN 'amazon-uk' WHEN 'amazon.de' THEN 'amazon-de'
	WHEN 'amazon.fr' THEN 'amazon-fr' WHEN 'amazon.es' THEN 'amazon-es' WHEN 'amazon.it' THEN 'amazon-it'
	WHEN 'amazon.nl' THEN 'amazon-nl' WHEN 'amazon.ca' THEN 'amazon-ca' WHEN 'amazon.com.au' THEN 'amazon-au'
	WHEN 'amazon.in' THEN 'amazon-in' END AS "storefront") s
WHERE btrim(b."amazon_url") ~* '^https?://'
	AND NOT EXISTS (SELECT 1 FROM "retailer_links" l WHERE l."book_id" = b."id" AND btrim(l."retailer_url") = btrim(b."amazon_url"));--> statement-breakpoint
ALTER TABLE "books" DROP COLUMN "amazon_url";--> statement-breakpoint
ALTER TABLE "books" DROP COLUMN "additional_stores_enabled";
