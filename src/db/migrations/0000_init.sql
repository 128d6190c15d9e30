CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limit_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	"impersonated_by" text,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "two_factor" (
	"id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"user_id" text NOT NULL,
	"verified" boolean DEFAULT true,
	"failed_verification_count" integer DEFAULT 0,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"banned" boolean DEFAULT false,
	"ban_reason" text,
	"ban_expires" timestamp with time zone,
	"two_factor_enabled" boolean DEFAULT false,
	CONSTRAINT "user_email_unique" UNIQUE("email"),
	CONSTRAINT "user_role_check" CHECK ("user"."role" in ('user', 'admin', 'super_admin'))
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"from_currency" text NOT NULL,
	"to_currency" text NOT NULL,
	"rate" numeric(14, 6) NOT NULL,
	"last_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_from_currency_to_currency_pk" PRIMARY KEY("from_currency","to_currency"),
	CONSTRAINT "exchange_rates_from_check" CHECK ("exchange_rates"."from_currency" in ('GBP', 'USD', 'EUR', 'CAD', 'AUD')),
	CONSTRAINT "exchange_rates_to_check" CHECK ("exchange_rates"."to_currency" in ('GBP', 'USD', 'EUR', 'CAD', 'AUD')),
	CONSTRAINT "exchange_rates_rate_check" CHECK ("exchange_rates"."rate" > 0)
);
--> statement-breakpoint
CREATE TABLE "processed_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"tier" text DEFAULT 'mini' NOT NULL,
	"status" text DEFAULT 'trial' NOT NULL,
	"currency" text DEFAULT 'GBP' NOT NULL,
	"custom_domain_addon" boolean DEFAULT false NOT NULL,
	"provider" text DEFAULT 'sandbox' NOT NULL,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"trial_ends_at" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "subscriptions_provider_subscription_id_unique" UNIQUE("provider_subscription_id"),
	CONSTRAINT "subscriptions_tier_check" CHECK ("subscriptions"."tier" in ('mini', 'midi', 'maxi', 'mega')),
	CONSTRAINT "subscriptions_status_check" CHECK ("subscriptions"."status" in ('trial', 'active', 'past_due', 'cancelled', 'expired')),
	CONSTRAINT "subscriptions_currency_check" CHECK ("subscriptions"."currency" in ('GBP', 'USD', 'EUR', 'CAD', 'AUD')),
	CONSTRAINT "subscriptions_provider_check" CHECK ("subscriptions"."provider" in ('sandbox', 'stripe'))
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"subscription_tier" text NOT NULL,
	"transaction_type" text DEFAULT 'subscription_payment' NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"amount_gbp_minor" integer NOT NULL,
	"provider_invoice_id" text,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_provider_invoice_id_unique" UNIQUE("provider_invoice_id"),
	CONSTRAINT "transactions_tier_check" CHECK ("transactions"."subscription_tier" in ('mini', 'midi', 'maxi', 'mega')),
	CONSTRAINT "transactions_type_check" CHECK ("transactions"."transaction_type" in ('subscription_payment', 'refund')),
	CONSTRAINT "transactions_currency_check" CHECK ("transactions"."currency" in ('GBP', 'USD', 'EUR', 'CAD', 'AUD'))
);
--> statement-breakpoint
CREATE TABLE "book_genres" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"book_id" uuid NOT NULL,
	"genre_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "books" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"author" text NOT NULL,
	"isbn" text,
	"short_blurb" text,
	"release_date" date,
	"series_name" text,
	"order_in_series" integer,
	"cover_image_url" text,
	"cover_image_variants" jsonb,
	"primary_price_minor" integer,
	"primary_currency" text DEFAULT 'GBP' NOT NULL,
	"amazon_url" text,
	"format_ebook" boolean DEFAULT true NOT NULL,
	"format_paperback" boolean DEFAULT false NOT NULL,
	"format_hardback" boolean DEFAULT false NOT NULL,
	"format_audiobook" boolean DEFAULT false NOT NULL,
	"format_kindle_unlimited" boolean DEFAULT false NOT NULL,
	"format" text DEFAULT 'Multiple' NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"visibility_enabled" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"user_rating" numeric(2, 1),
	"show_user_rating" boolean DEFAULT false NOT NULL,
	"bestseller_badge_enabled" boolean DEFAULT false NOT NULL,
	"promo_badge_enabled" boolean DEFAULT false NOT NULL,
	"promo_badge_text" text,
	"amazon_rating_enabled" boolean DEFAULT false NOT NULL,
	"review_snippet" text,
	"audiobook_enabled" boolean DEFAULT false NOT NULL,
	"narrator_name" text,
	"audio_sample_url" text,
	"additional_stores_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "books_currency_check" CHECK ("books"."primary_currency" in ('GBP', 'USD', 'EUR', 'CAD', 'AUD')),
	CONSTRAINT "books_price_check" CHECK ("books"."primary_price_minor" >= 0),
	CONSTRAINT "books_order_in_series_check" CHECK ("books"."order_in_series" >= 1),
	CONSTRAINT "books_rating_check" CHECK ("books"."user_rating" between 0 and 5),
	CONSTRAINT "books_sort_order_check" CHECK ("books"."sort_order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "retailer_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"book_id" uuid NOT NULL,
	"retailer_name" text NOT NULL,
	"retailer_url" text NOT NULL,
	"retailer_icon" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retailer_links_url_check" CHECK ("retailer_links"."retailer_url" ~* '^https?://')
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"book_id" uuid NOT NULL,
	"rating" numeric(2, 1),
	"reviewer_name" text,
	"review_text" text NOT NULL,
	"review_date" date,
	"amazon_review_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_rating_check" CHECK ("reviews"."rating" between 0 and 5)
);
--> statement-breakpoint
CREATE TABLE "blog_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"category" text DEFAULT 'news' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blog_posts_category_check" CHECK ("blog_posts"."category" in ('news', 'books', 'events', 'thoughts'))
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirm_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "newsletter_subscribers_confirm_token_unique" UNIQUE("confirm_token"),
	CONSTRAINT "newsletter_subscribers_status_check" CHECK ("newsletter_subscribers"."status" in ('pending', 'confirmed', 'unsubscribed'))
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_outbox_status_check" CHECK ("mail_outbox"."status" in ('logged', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "support_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"name" text,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"admin_response" text,
	"responded_at" timestamp with time zone,
	"responded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_tickets_priority_check" CHECK ("support_tickets"."priority" in ('urgent', 'high', 'normal', 'low')),
	CONSTRAINT "support_tickets_status_check" CHECK ("support_tickets"."status" in ('open', 'responded', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "system_metrics" (
	"metric_date" date PRIMARY KEY NOT NULL,
	"total_users" integer DEFAULT 0 NOT NULL,
	"new_signups" integer DEFAULT 0 NOT NULL,
	"monthly_revenue_gbp_minor" integer DEFAULT 0 NOT NULL,
	"paid_users" integer DEFAULT 0 NOT NULL,
	"active_users" integer DEFAULT 0 NOT NULL,
	"trial_users" integer DEFAULT 0 NOT NULL,
	"mini_tier_users" integer DEFAULT 0 NOT NULL,
	"midi_tier_users" integer DEFAULT 0 NOT NULL,
	"maxi_tier_users" integer DEFAULT 0 NOT NULL,
	"mega_tier_users" integer DEFAULT 0 NOT NULL,
	"churn_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"contact_email" text,
	"enable_contact_form" boolean DEFAULT true NOT NULL,
	"social_links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"antispam_enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"domain" text NOT NULL,
	"verification_token" text NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "legal_pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"page_type" text DEFAULT 'privacy_legal' NOT NULL,
	"content" text,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "legal_pages_type_check" CHECK ("legal_pages"."page_type" in ('privacy_legal'))
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"bio" text DEFAULT 'Author bio coming soon...' NOT NULL,
	"tagline" text,
	"genre" text DEFAULT 'Fiction' NOT NULL,
	"author_photo_url" text,
	"writing_journey" jsonb,
	"onboarding_completed" boolean DEFAULT false NOT NULL,
	"onboarding_completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "website_analytics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"website_id" uuid NOT NULL,
	"date" date NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"unique_visitors" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "website_customization" (
	"user_id" text PRIMARY KEY NOT NULL,
	"accent_color" text DEFAULT '#6366f1' NOT NULL,
	"button_color" text DEFAULT '#2563eb' NOT NULL,
	"button_text_color" text DEFAULT '#ffffff' NOT NULL,
	"button_hover_color" text DEFAULT '#1d4ed8' NOT NULL,
	"button_hover_text_color" text DEFAULT '#ffffff' NOT NULL,
	"font_family" text DEFAULT 'merriweather' NOT NULL,
	"newsletter_embed_code" text,
	"blog_page_title" text,
	"blog_page_description" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "website_customization_font_check" CHECK ("website_customization"."font_family" in ('inter', 'open-sans', 'roboto', 'lato', 'source-sans-pro', 'poppins', 'merriweather', 'playfair-display', 'crimson-text'))
);
--> statement-breakpoint
CREATE TABLE "websites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"subdomain" text,
	"website_name" text NOT NULL,
	"website_title" text,
	"tagline" text,
	"domain_option" text DEFAULT 'free' NOT NULL,
	"custom_domain" text,
	"hero_image_url" text,
	"hero_text_color" text DEFAULT '#ffffff' NOT NULL,
	"hero_button_color" text DEFAULT '#2563eb' NOT NULL,
	"hero_button_text_color" text DEFAULT '#ffffff' NOT NULL,
	"hero_button_secondary_color" text DEFAULT '#ffffff' NOT NULL,
	"hero_button_secondary_text_color" text DEFAULT '#000000' NOT NULL,
	"home_page_content" text,
	"layout_style" text DEFAULT 'left' NOT NULL,
	"logo_icon" text DEFAULT 'BookOpen' NOT NULL,
	"icon_color" text DEFAULT '#6366f1' NOT NULL,
	"header_size" real DEFAULT 1.5 NOT NULL,
	"header_background_color" text DEFAULT '#ffffff' NOT NULL,
	"footer_background_color" text DEFAULT '#1f2937' NOT NULL,
	"books_enabled" boolean DEFAULT true NOT NULL,
	"about_enabled" boolean DEFAULT true NOT NULL,
	"news_enabled" boolean DEFAULT true NOT NULL,
	"newsletter_enabled" boolean DEFAULT true NOT NULL,
	"contact_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "websites_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "websites_subdomain_format" CHECK ("websites"."subdomain" ~ '^[a-z0-9]{3,63}$'),
	CONSTRAINT "websites_has_address" CHECK ("websites"."subdomain" is not null or "websites"."custom_domain" is not null),
	CONSTRAINT "websites_domain_option_check" CHECK ("websites"."domain_option" in ('free', 'custom')),
	CONSTRAINT "websites_layout_style_check" CHECK ("websites"."layout_style" in ('left', 'center', 'hero')),
	CONSTRAINT "websites_logo_icon_check" CHECK ("websites"."logo_icon" in ('BookOpen', 'Book', 'Library', 'Bookmark', 'PenTool', 'Feather', 'Pen', 'FileText', 'Mail', 'Newspaper', 'User', 'Home')),
	CONSTRAINT "websites_header_size_check" CHECK ("websites"."header_size" between 1 and 3)
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factor" ADD CONSTRAINT "two_factor_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_genres" ADD CONSTRAINT "book_genres_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retailer_links" ADD CONSTRAINT "retailer_links_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "newsletter_subscribers_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_responded_by_user_id_fk" FOREIGN KEY ("responded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_settings" ADD CONSTRAINT "contact_settings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_verifications" ADD CONSTRAINT "domain_verifications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_pages" ADD CONSTRAINT "legal_pages_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_id_user_id_fk" FOREIGN KEY ("id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_analytics" ADD CONSTRAINT "website_analytics_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_customization" ADD CONSTRAINT "website_customization_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "websites" ADD CONSTRAINT "websites_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_id_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "session_user_id_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "two_factor_user_id_idx" ON "two_factor" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "two_factor_secret_idx" ON "two_factor" USING btree ("secret");--> statement-breakpoint
CREATE INDEX "verification_identifier_idx" ON "verification" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "transactions_processed_idx" ON "transactions" USING btree ("processed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "book_genres_book_name_idx" ON "book_genres" USING btree ("book_id",lower("genre_name"));--> statement-breakpoint
CREATE INDEX "books_user_sort_idx" ON "books" USING btree ("user_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "books_one_featured_per_user_idx" ON "books" USING btree ("user_id") WHERE "books"."is_featured";--> statement-breakpoint
CREATE INDEX "retailer_links_book_idx" ON "retailer_links" USING btree ("book_id","sort_order");--> statement-breakpoint
CREATE INDEX "reviews_book_idx" ON "reviews" USING btree ("book_id","created_at");--> statement-breakpoint
CREATE INDEX "blog_posts_user_created_idx" ON "blog_posts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_messages_user_created_idx" ON "contact_messages" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_subscribers_user_email_idx" ON "newsletter_subscribers" USING btree ("user_id",lower("email"));--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "support_tickets_status_idx" ON "support_tickets" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "domain_verifications_user_domain_idx" ON "domain_verifications" USING btree ("user_id",lower("domain"));--> statement-breakpoint
CREATE UNIQUE INDEX "legal_pages_user_type_idx" ON "legal_pages" USING btree ("user_id","page_type");--> statement-breakpoint
CREATE UNIQUE INDEX "website_analytics_site_date_idx" ON "website_analytics" USING btree ("website_id","date");--> statement-breakpoint
CREATE INDEX "website_analytics_date_idx" ON "website_analytics" USING btree ("date");--> statement-breakpoint
CREATE UNIQUE INDEX "websites_subdomain_lower_idx" ON "websites" USING btree (lower("subdomain"));--> statement-breakpoint
CREATE UNIQUE INDEX "websites_custom_domain_lower_idx" ON "websites" USING btree (lower("custom_domain"));