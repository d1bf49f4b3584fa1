ALTER TABLE "ticket_tasks" ADD COLUMN "qty_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_tasks" ADD COLUMN "qty_changed_by" integer;--> statement-breakpoint
ALTER TABLE "ticket_tasks" ADD CONSTRAINT "ticket_tasks_qty_changed_by_users_id_fk" FOREIGN KEY ("qty_changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;