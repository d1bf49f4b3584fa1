-- The kept production figures (migration 0030, decision 059) at ten years' size (docs/product/scale.md §1). A
-- ticket update moved the ticket between groups one row at a time, and every move then looked for
-- emptied groups over the company's whole calendar of weeks (~260,000 rows at that size, a
-- sequential scan): 0.45 s for one ticket, 105 s to invoice 1,250. Emptied groups are now found
-- through partial indexes that hold only them — they are deleted in the statement that empties
-- them, so these indexes stay near-empty — and updates of tickets and tasks are counted once per
-- statement from their transition tables (a transition table cannot go with `UPDATE OF cols`, so
-- the functions pick out the rows whose counted columns changed, as the old WHEN clauses did).
CREATE INDEX "job_unit_figures_empty_idx" ON "job_unit_figures" ("job_id") WHERE "tasks" = 0;--> statement-breakpoint
CREATE INDEX "job_unit_days_empty_idx" ON "job_unit_days" ("job_id") WHERE "tasks" = 0;--> statement-breakpoint
CREATE INDEX "company_unit_weeks_empty_idx" ON "company_unit_weeks" ("company_id") WHERE "tasks" = 0;--> statement-breakpoint
CREATE INDEX "job_ticket_days_empty_idx" ON "job_ticket_days" ("job_id") WHERE "tickets" = 0;--> statement-breakpoint
DROP TRIGGER "tickets_kept_upd" ON "tickets";--> statement-breakpoint
CREATE OR REPLACE FUNCTION linecrew_kept_tickets_upd() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  olds tickets[];
  news tickets[];
BEGIN
  SELECT array_agg(ROW(o.*)::tickets), array_agg(ROW(n.*)::tickets) INTO olds, news
  FROM before_rows o JOIN after_rows n ON n.id = o.id
  WHERE (o.job_id, o.company_id, o.due_date, o.actual_completion_date, o.billed_at, o.assigned_to)
    IS DISTINCT FROM (n.job_id, n.company_id, n.due_date, n.actual_completion_date, n.billed_at, n.assigned_to);
  IF olds IS NULL THEN RETURN NULL; END IF;
  PERFORM linecrew_kept_tickets(olds, -1, true, NULL);
  PERFORM linecrew_kept_tickets(news, 1, true, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "tickets_kept_upd" AFTER UPDATE ON "tickets" REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_tickets_upd();--> statement-breakpoint
DROP TRIGGER "ticket_tasks_kept_upd" ON "ticket_tasks";--> statement-breakpoint
CREATE OR REPLACE FUNCTION linecrew_kept_tasks_upd() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  olds ticket_tasks[];
  news ticket_tasks[];
BEGIN
  SELECT array_agg(ROW(o.*)::ticket_tasks), array_agg(ROW(n.*)::ticket_tasks) INTO olds, news
  FROM before_rows o JOIN after_rows n ON n.id = o.id
  WHERE (o.ticket_id, o.company_id, o.unit_id, o.init_qty, o.additional_qty)
    IS DISTINCT FROM (n.ticket_id, n.company_id, n.unit_id, n.init_qty, n.additional_qty);
  IF olds IS NULL THEN RETURN NULL; END IF;
  PERFORM linecrew_kept_tasks(olds, ARRAY(SELECT t FROM tickets t WHERE t.id = ANY (ARRAY(SELECT DISTINCT x.ticket_id FROM unnest(olds) x))), -1, NULL);
  PERFORM linecrew_kept_tasks(news, ARRAY(SELECT t FROM tickets t WHERE t.id = ANY (ARRAY(SELECT DISTINCT x.ticket_id FROM unnest(news) x))), 1, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_tasks_kept_upd" AFTER UPDATE ON "ticket_tasks" REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_tasks_upd();
