CREATE TABLE "blog_post_slugs" (
	"user_id" text NOT NULL,
	"slug" text NOT NULL,
	"post_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "website_page_stats" (
	"website_id" uuid NOT NULL,
	"date" date NOT NULL,
	"path" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "website_referrer_stats" (
	"website_id" uuid NOT NULL,
	"date" date NOT NULL,
	"source" text NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "slug" text;--> statement-breakpoint
-- Existing posts get an address from their title (the app's slugify, without accent folding); a
-- second post of the same title by the same author gets a piece of its id so addresses stay unique.
UPDATE "blog_posts" AS p SET "slug" = s.slug FROM (
  SELECT id, CASE WHEN n = 1 THEN base ELSE base || '-' || left(id::text, 8) END AS slug FROM (
    SELECT id, base, row_number() OVER (PARTITION BY user_id, base ORDER BY created_at, id) AS n FROM (
      SELECT id, user_id, created_at,
        coalesce(nullif(trim(both '-' from left(regexp_replace(lower(title), '[^a-z0-9]+', '-', 'g'), 80)), ''), 'post') AS base
      FROM "blog_posts"
    ) b
  ) r
) s WHERE p.id = s.id;--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "author_photo_variants" jsonb;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "hero_image_variants" jsonb;--> statement-breakpoint
ALTER TABLE "blog_post_slugs" ADD CONSTRAINT "blog_post_slugs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blog_post_slugs" ADD CONSTRAINT "blog_post_slugs_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_page_stats" ADD CONSTRAINT "website_page_stats_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_referrer_stats" ADD CONSTRAINT "website_referrer_stats_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blog_post_slugs_user_slug_idx" ON "blog_post_slugs" USING btree ("user_id","slug");--> statement-breakpoint
CREATE INDEX "blog_post_slugs_post_idx" ON "blog_post_slugs" USING btree ("post_id");--> statement-breakpoint
CREATE UNIQUE INDEX "website_page_stats_site_date_path_idx" ON "website_page_stats" USING btree ("website_id","date","path");--> statement-breakpoint
CREATE UNIQUE INDEX "website_referrer_stats_site_date_source_idx" ON "website_referrer_stats" USING btree ("website_id","date","source");--> statement-breakpoint
CREATE UNIQUE INDEX "blog_posts_user_slug_idx" ON "blog_posts" USING btree ("user_id","slug");