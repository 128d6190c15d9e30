CREATE TABLE "visit_salts" (
	"date" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "website_visitors" (
	"website_id" uuid NOT NULL,
	"date" date NOT NULL,
	"visitor" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "website_visitors" ADD CONSTRAINT "website_visitors_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "website_visitors_site_date_visitor_idx" ON "website_visitors" USING btree ("website_id","date","visitor");