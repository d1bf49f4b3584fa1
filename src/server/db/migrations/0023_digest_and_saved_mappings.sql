-- docs/product/records.md §3–§4, decision 046: digest_runs (the daily digest claimed once per company and day) and
-- saved_mappings (a utility's last column mapping).
CREATE TABLE "digest_runs" (
	"company_id" integer NOT NULL,
	"day" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"claimed_by" text NOT NULL,
	"sent_to" integer[] DEFAULT '{}' NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "digest_runs_company_id_day_pk" PRIMARY KEY("company_id","day")
);
--> statement-breakpoint
CREATE TABLE "saved_mappings" (
	"company_id" integer NOT NULL,
	"utility_id" integer NOT NULL,
	"tickets_mappings" jsonb NOT NULL,
	"library_mappings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_mappings_company_id_utility_id_pk" PRIMARY KEY("company_id","utility_id")
);
--> statement-breakpoint
ALTER TABLE "digest_runs" ADD CONSTRAINT "digest_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_mappings" ADD CONSTRAINT "saved_mappings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_mappings" ADD CONSTRAINT "saved_mappings_utility_id_utilities_id_fk" FOREIGN KEY ("utility_id") REFERENCES "public"."utilities"("id") ON DELETE cascade ON UPDATE no action;