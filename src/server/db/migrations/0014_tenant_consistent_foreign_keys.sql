-- A ticket's rows (tasks, work orders, notes, permits, photos) point at (ticket, company), a
-- ticket at (job, company), a task's unit at (unit, company): the database refuses a row whose
-- company is not its parent's, which until now only the code checked. Each composite key
-- replaces two checks per row (the company's, the parent's): a 10,000-task PGlite import spent
-- ~75 ms of ~300 in the company check alone. A company's rows still go with it, by cascade
-- through its jobs. The unique keys the references need come first.
-- The unit key is checked at commit: a company's units go with it at once, its tasks only three
-- cascades later (company, job, ticket), and a check at the end of the statement came first.
ALTER TABLE "units" ADD CONSTRAINT "units_id_company_unique" UNIQUE("id","company_id");
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_id_company_unique" UNIQUE("id","company_id");
--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_id_company_unique" UNIQUE("id","company_id");
--> statement-breakpoint
ALTER TABLE "images" DROP CONSTRAINT "images_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "images" DROP CONSTRAINT "images_ticket_id_tickets_id_fk";
--> statement-breakpoint
ALTER TABLE "notes" DROP CONSTRAINT "notes_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "notes" DROP CONSTRAINT "notes_ticket_id_tickets_id_fk";
--> statement-breakpoint
ALTER TABLE "permits" DROP CONSTRAINT "permits_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "permits" DROP CONSTRAINT "permits_ticket_id_tickets_id_fk";
--> statement-breakpoint
ALTER TABLE "ticket_tasks" DROP CONSTRAINT "ticket_tasks_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "ticket_tasks" DROP CONSTRAINT "ticket_tasks_ticket_id_tickets_id_fk";
--> statement-breakpoint
ALTER TABLE "ticket_tasks" DROP CONSTRAINT "ticket_tasks_unit_id_units_id_fk";
--> statement-breakpoint
ALTER TABLE "tickets" DROP CONSTRAINT "tickets_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "tickets" DROP CONSTRAINT "tickets_job_id_jobs_id_fk";
--> statement-breakpoint
ALTER TABLE "work_orders" DROP CONSTRAINT "work_orders_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "work_orders" DROP CONSTRAINT "work_orders_ticket_id_tickets_id_fk";
--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_ticket_company_fk" FOREIGN KEY ("ticket_id","company_id") REFERENCES "public"."tickets"("id","company_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_ticket_company_fk" FOREIGN KEY ("ticket_id","company_id") REFERENCES "public"."tickets"("id","company_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_ticket_company_fk" FOREIGN KEY ("ticket_id","company_id") REFERENCES "public"."tickets"("id","company_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ticket_tasks" ADD CONSTRAINT "ticket_tasks_ticket_company_fk" FOREIGN KEY ("ticket_id","company_id") REFERENCES "public"."tickets"("id","company_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ticket_tasks" ADD CONSTRAINT "ticket_tasks_unit_company_fk" FOREIGN KEY ("unit_id","company_id") REFERENCES "public"."units"("id","company_id") ON DELETE no action ON UPDATE no action DEFERRABLE INITIALLY DEFERRED;
--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_job_company_fk" FOREIGN KEY ("job_id","company_id") REFERENCES "public"."jobs"("id","company_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_ticket_company_fk" FOREIGN KEY ("ticket_id","company_id") REFERENCES "public"."tickets"("id","company_id") ON DELETE cascade ON UPDATE no action;
