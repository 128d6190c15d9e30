CREATE TABLE "reader_magnet_claims" (
	"user_id" text NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reader_magnet_claims_user_id_subscriber_id_pk" PRIMARY KEY("user_id","subscriber_id")
);
--> statement-breakpoint
CREATE TABLE "reader_magnet_days" (
	"user_id" text NOT NULL,
	"date" date NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "reader_magnet_days_user_id_date_pk" PRIMARY KEY("user_id","date")
);
--> statement-breakpoint
CREATE TABLE "reader_magnets" (
	"user_id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reader_magnets_content_type_check" CHECK ("reader_magnets"."content_type" in ('application/pdf', 'application/epub+zip'))
);
--> statement-breakpoint
ALTER TABLE "reader_magnet_claims" ADD CONSTRAINT "reader_magnet_claims_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_magnet_claims" ADD CONSTRAINT "reader_magnet_claims_subscriber_id_newsletter_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."newsletter_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_magnet_days" ADD CONSTRAINT "reader_magnet_days_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_magnets" ADD CONSTRAINT "reader_magnets_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;