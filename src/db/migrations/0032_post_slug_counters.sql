CREATE TABLE "post_slug_counters" (
	"user_id" text NOT NULL,
	"base" text NOT NULL,
	"next" integer NOT NULL,
	CONSTRAINT "post_slug_counters_user_id_base_pk" PRIMARY KEY("user_id","base")
);
--> statement-breakpoint
ALTER TABLE "post_slug_counters" ADD CONSTRAINT "post_slug_counters_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;