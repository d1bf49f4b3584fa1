CREATE TABLE "history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"ticket_id" integer,
	"job_id" integer,
	"field" text,
	"old" jsonb,
	"new" jsonb
);
--> statement-breakpoint
ALTER TABLE "history" ADD CONSTRAINT "history_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history" ADD CONSTRAINT "history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "history_ticket_idx" ON "history" USING btree ("company_id","ticket_id","id");--> statement-breakpoint
CREATE INDEX "history_job_idx" ON "history" USING btree ("company_id","job_id","id");--> statement-breakpoint
CREATE INDEX "history_entity_idx" ON "history" USING btree ("company_id","entity","entity_id","id");