-- Production figures kept as the data changes (docs/product/scale.md §1, decision 059). At ten
-- years' size (1,000,000 tickets, 4,000,000 tasks) GET /dashboard summed every task of the company
-- on each request (306 s) and a 5,000-ticket job's production its 20,000 tasks (5.4 s). These
-- tables hold the same sums, kept right in the same transaction as every write that changes them,
-- by triggers on the tables summed: so every write path (API, import, merge, delete, bulk SQL)
-- keeps them, and a rolled-back write leaves them as they were.
--
-- job_unit_figures: per job × unit × what production and the dashboard group by (ticket complete;
--   on an invoice, billed_tickets; marked billed, billed_at; the ticket's working foreman, 0 when
--   none): Σ bid (init_qty) and Σ actual (init + additional) quantity and the number of tasks.
-- job_ticket_days: per job, open tickets by due date and complete tickets by completion day on
--   the company's calendar (the dashboard's open, overdue and completed-this-week counts).
-- job_unit_days: per job × completion day × unit, the completed tasks' actual quantity (the
--   dashboard's weekly chart for one foreman's jobs); company_unit_weeks: the same per company ×
--   week × unit (the chart for the whole company).
-- job_figures: per job, what the dashboard shows of computeProduction's totals, derived from
--   job_unit_figures and the units' prices: amounts rounded per unit code as computeProduction does.
-- A group whose count falls to 0 is deleted: "no row" is "no tasks", as in the sums it replaces.
-- Quantities are summed as numeric (exact, as computeProduction's big.js); prices, codes and names
-- are read from their own tables when read, except in job_figures, which a price or code change
-- recomputes.
CREATE TABLE "job_unit_figures" (
  "company_id" integer NOT NULL,
  "job_id" integer NOT NULL,
  "unit_id" integer NOT NULL,
  "complete" boolean NOT NULL,
  "invoiced" boolean NOT NULL,
  "marked_billed" boolean NOT NULL,
  "assigned_to" integer NOT NULL,
  "bid_qty" numeric NOT NULL,
  "actual_qty" numeric NOT NULL,
  "tasks" integer NOT NULL
);--> statement-breakpoint
CREATE TABLE "job_ticket_days" (
  "company_id" integer NOT NULL,
  "job_id" integer NOT NULL,
  "open" boolean NOT NULL,
  -- open: the due date (null when none); complete: the completion day on the company's calendar.
  "day" date,
  "tickets" integer NOT NULL
);--> statement-breakpoint
CREATE TABLE "job_unit_days" (
  "company_id" integer NOT NULL,
  "job_id" integer NOT NULL,
  "day" date NOT NULL,
  "unit_id" integer NOT NULL,
  "actual_qty" numeric NOT NULL,
  "tasks" integer NOT NULL
);--> statement-breakpoint
-- The same per company × week (its Monday) × unit, whatever the job: the dashboard's weekly chart
-- for the whole company reads 12 weeks × its units here, not the ~770,000 job × day × unit rows
-- of 12 weeks at ten years' size (the chart's foreman filter reads job_unit_days: his jobs only).
CREATE TABLE "company_unit_weeks" (
  "company_id" integer NOT NULL,
  "week" date NOT NULL,
  "unit_id" integer NOT NULL,
  "actual_qty" numeric NOT NULL,
  "tasks" integer NOT NULL
);--> statement-breakpoint
CREATE TABLE "job_figures" (
  "job_id" integer PRIMARY KEY,
  "company_id" integer NOT NULL,
  "priced" boolean NOT NULL,
  "actual_qty" numeric NOT NULL,
  "completed_qty" numeric NOT NULL,
  "actual_amount" numeric NOT NULL,
  "completed_amount" numeric NOT NULL,
  "unbilled_amount" numeric NOT NULL
);--> statement-breakpoint
CREATE INDEX "job_figures_company_idx" ON "job_figures" ("company_id");--> statement-breakpoint

-- job_figures of the given jobs from job_unit_figures: per unit code (the price of
-- its lowest unit id, as the dashboard's sums met them), round(quantity × price, 2) summed, as
-- computeProduction's amountOf and sumMoney; billed here is "on an invoice" (the dashboard's rule).
CREATE FUNCTION linecrew_kept_job_figures(p_jobs integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM job_figures WHERE job_id = ANY (p_jobs);
  INSERT INTO job_figures (job_id, company_id, priced, actual_qty, completed_qty, actual_amount, completed_amount, unbilled_amount)
  SELECT job_id, min(company_id), bool_or(price IS NOT NULL), sum(actual), sum(completed),
    coalesce(sum(round(actual * price, 2)), 0), coalesce(sum(round(completed * price, 2)), 0), coalesce(sum(round(unbilled * price, 2)), 0)
  FROM (
    SELECT f.job_id, min(f.company_id) AS company_id, (array_agg(u.unit_price ORDER BY u.id))[1] AS price,
      sum(f.actual_qty) AS actual,
      coalesce(sum(f.actual_qty) FILTER (WHERE f.complete), 0) AS completed,
      coalesce(sum(f.actual_qty) FILTER (WHERE f.complete AND NOT f.invoiced), 0) AS unbilled
    FROM job_unit_figures f JOIN units u ON u.id = f.unit_id
    WHERE f.job_id = ANY (p_jobs)
    GROUP BY f.job_id, u.code
  ) per_code
  GROUP BY job_id;
END $$;--> statement-breakpoint

-- Adds (p_sign 1) or takes away (-1) the tasks `tts` as they count under the ticket rows `tks`
-- (a task whose ticket is not among them counts nothing: a deleted ticket's tasks were taken
-- away with it, before it went). p_invoiced: whether the tickets are on an invoice, null to read
-- billed_tickets. Then the touched jobs' job_figures.
CREATE FUNCTION linecrew_kept_tasks(tts ticket_tasks[], tks tickets[], p_sign integer, p_invoiced boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE touched integer[];
BEGIN
  IF cardinality(tts) = 0 OR cardinality(tks) = 0 THEN RETURN; END IF;
  INSERT INTO job_unit_figures AS f (company_id, job_id, unit_id, complete, invoiced, marked_billed, assigned_to, bid_qty, actual_qty, tasks)
  SELECT t.company_id, t.job_id, tt.unit_id, t.actual_completion_date IS NOT NULL,
    coalesce(p_invoiced, EXISTS (SELECT 1 FROM billed_tickets b WHERE b.ticket_id = t.id)),
    t.billed_at IS NOT NULL, coalesce(t.assigned_to, 0),
    p_sign * sum(tt.init_qty::numeric), p_sign * sum(tt.init_qty::numeric + tt.additional_qty::numeric), p_sign * count(*)
  FROM unnest(tts) tt JOIN unnest(tks) t ON t.id = tt.ticket_id
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (job_id, unit_id, complete, invoiced, marked_billed, assigned_to) DO UPDATE
    SET bid_qty = f.bid_qty + excluded.bid_qty, actual_qty = f.actual_qty + excluded.actual_qty, tasks = f.tasks + excluded.tasks;
  INSERT INTO job_unit_days AS d (company_id, job_id, day, unit_id, actual_qty, tasks)
  SELECT t.company_id, t.job_id, (t.actual_completion_date AT TIME ZONE c.time_zone)::date, tt.unit_id,
    p_sign * sum(tt.init_qty::numeric + tt.additional_qty::numeric), p_sign * count(*)
  FROM unnest(tts) tt JOIN unnest(tks) t ON t.id = tt.ticket_id JOIN companies c ON c.id = t.company_id
  WHERE t.actual_completion_date IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (job_id, day, unit_id) DO UPDATE SET actual_qty = d.actual_qty + excluded.actual_qty, tasks = d.tasks + excluded.tasks;
  INSERT INTO company_unit_weeks AS w (company_id, week, unit_id, actual_qty, tasks)
  SELECT t.company_id, date_trunc('week', (t.actual_completion_date AT TIME ZONE c.time_zone))::date, tt.unit_id,
    p_sign * sum(tt.init_qty::numeric + tt.additional_qty::numeric), p_sign * count(*)
  FROM unnest(tts) tt JOIN unnest(tks) t ON t.id = tt.ticket_id JOIN companies c ON c.id = t.company_id
  WHERE t.actual_completion_date IS NOT NULL
  GROUP BY 1, 2, 3
  ON CONFLICT (company_id, week, unit_id) DO UPDATE SET actual_qty = w.actual_qty + excluded.actual_qty, tasks = w.tasks + excluded.tasks;
  touched := ARRAY(SELECT DISTINCT t.job_id FROM unnest(tks) t);
  IF p_sign < 0 THEN
    DELETE FROM job_unit_figures WHERE job_id = ANY (touched) AND tasks = 0;
    DELETE FROM job_unit_days WHERE job_id = ANY (touched) AND tasks = 0;
    DELETE FROM company_unit_weeks WHERE company_id = ANY (ARRAY(SELECT DISTINCT t.company_id FROM unnest(tks) t)) AND tasks = 0;
  END IF;
  PERFORM linecrew_kept_job_figures(touched);
END $$;--> statement-breakpoint

-- Adds or takes away the tickets `tks` (their counts when p_counts, and their tasks as they are now).
CREATE FUNCTION linecrew_kept_tickets(tks tickets[], p_sign integer, p_counts boolean, p_invoiced boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(tks) = 0 THEN RETURN; END IF;
  IF p_counts THEN
    INSERT INTO job_ticket_days AS k (company_id, job_id, open, day, tickets)
    SELECT t.company_id, t.job_id, t.actual_completion_date IS NULL,
      CASE WHEN t.actual_completion_date IS NULL THEN t.due_date ELSE (t.actual_completion_date AT TIME ZONE c.time_zone)::date END,
      p_sign * count(*)
    FROM unnest(tks) t JOIN companies c ON c.id = t.company_id
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (job_id, open, day) DO UPDATE SET tickets = k.tickets + excluded.tickets;
    IF p_sign < 0 THEN
      DELETE FROM job_ticket_days WHERE job_id = ANY (ARRAY(SELECT DISTINCT t.job_id FROM unnest(tks) t)) AND tickets = 0;
    END IF;
  END IF;
  PERFORM linecrew_kept_tasks(ARRAY(SELECT tt FROM ticket_tasks tt WHERE tt.ticket_id = ANY (ARRAY(SELECT t.id FROM unnest(tks) t))), tks, p_sign, p_invoiced);
END $$;--> statement-breakpoint

-- Every kept figure from scratch, set-based (this migration's backfill; the large bench data,
-- written with triggers off, calls it after loading).
CREATE FUNCTION linecrew_kept_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM job_unit_figures;
  DELETE FROM job_ticket_days;
  DELETE FROM job_unit_days;
  DELETE FROM company_unit_weeks;
  INSERT INTO job_unit_figures (company_id, job_id, unit_id, complete, invoiced, marked_billed, assigned_to, bid_qty, actual_qty, tasks)
  SELECT t.company_id, t.job_id, tt.unit_id, t.actual_completion_date IS NOT NULL, b.ticket_id IS NOT NULL,
    t.billed_at IS NOT NULL, coalesce(t.assigned_to, 0),
    sum(tt.init_qty::numeric), sum(tt.init_qty::numeric + tt.additional_qty::numeric), count(*)
  FROM ticket_tasks tt JOIN tickets t ON t.id = tt.ticket_id LEFT JOIN billed_tickets b ON b.ticket_id = t.id
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
  INSERT INTO job_ticket_days (company_id, job_id, open, day, tickets)
  SELECT t.company_id, t.job_id, t.actual_completion_date IS NULL,
    CASE WHEN t.actual_completion_date IS NULL THEN t.due_date ELSE (t.actual_completion_date AT TIME ZONE c.time_zone)::date END,
    count(*)
  FROM tickets t JOIN companies c ON c.id = t.company_id
  GROUP BY 1, 2, 3, 4;
  INSERT INTO job_unit_days (company_id, job_id, day, unit_id, actual_qty, tasks)
  SELECT t.company_id, t.job_id, (t.actual_completion_date AT TIME ZONE c.time_zone)::date, tt.unit_id,
    sum(tt.init_qty::numeric + tt.additional_qty::numeric), count(*)
  FROM ticket_tasks tt JOIN tickets t ON t.id = tt.ticket_id JOIN companies c ON c.id = t.company_id
  WHERE t.actual_completion_date IS NOT NULL
  GROUP BY 1, 2, 3, 4;
  INSERT INTO company_unit_weeks (company_id, week, unit_id, actual_qty, tasks)
  SELECT company_id, date_trunc('week', day::timestamp)::date, unit_id, sum(actual_qty), sum(tasks)
  FROM job_unit_days GROUP BY 1, 2, 3;
  DELETE FROM job_figures;
  PERFORM linecrew_kept_job_figures(ARRAY(SELECT DISTINCT job_id FROM job_unit_figures));
END $$;--> statement-breakpoint

-- Tickets. New ones count (their tasks come after, each adding itself); a change of what they are
-- grouped by moves them (and their tasks) from the old group to the new; a deleted one is taken
-- away BEFORE it goes, while its tasks are still there to subtract (deleting its tasks then finds
-- no ticket and counts nothing). A job being deleted has gone already: its rows go with it below,
-- without 5,000 subtractions first.
CREATE FUNCTION linecrew_kept_tickets_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_kept_tickets(ARRAY(SELECT ROW(n.*)::tickets FROM added n), 1, true, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tickets_kept_ins AFTER INSERT ON tickets REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_tickets_ins();--> statement-breakpoint
CREATE FUNCTION linecrew_kept_tickets_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_kept_tickets(ARRAY[OLD], -1, true, NULL);
  PERFORM linecrew_kept_tickets(ARRAY[NEW], 1, true, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tickets_kept_upd AFTER UPDATE OF job_id, company_id, due_date, actual_completion_date, billed_at, assigned_to ON tickets
  FOR EACH ROW WHEN ((OLD.job_id, OLD.company_id, OLD.due_date, OLD.actual_completion_date, OLD.billed_at, OLD.assigned_to)
    IS DISTINCT FROM (NEW.job_id, NEW.company_id, NEW.due_date, NEW.actual_completion_date, NEW.billed_at, NEW.assigned_to))
  EXECUTE FUNCTION linecrew_kept_tickets_upd();--> statement-breakpoint
CREATE FUNCTION linecrew_kept_tickets_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM jobs j WHERE j.id = OLD.job_id) THEN
    PERFORM linecrew_kept_tickets(ARRAY[OLD], -1, true, NULL);
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER tickets_kept_del BEFORE DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION linecrew_kept_tickets_del();--> statement-breakpoint

-- Tasks: added, removed, or changed in what they count (quantities, unit, ticket).
CREATE FUNCTION linecrew_kept_tasks_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_kept_tasks(ARRAY(SELECT ROW(n.*)::ticket_tasks FROM added n),
    ARRAY(SELECT t FROM tickets t WHERE t.id = ANY (ARRAY(SELECT DISTINCT n.ticket_id FROM added n))), 1, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER ticket_tasks_kept_ins AFTER INSERT ON ticket_tasks REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_tasks_ins();--> statement-breakpoint
CREATE FUNCTION linecrew_kept_tasks_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_kept_tasks(ARRAY(SELECT ROW(o.*)::ticket_tasks FROM gone o),
    ARRAY(SELECT t FROM tickets t WHERE t.id = ANY (ARRAY(SELECT DISTINCT o.ticket_id FROM gone o))), -1, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER ticket_tasks_kept_del AFTER DELETE ON ticket_tasks REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_tasks_del();--> statement-breakpoint
CREATE FUNCTION linecrew_kept_tasks_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_kept_tasks(ARRAY[OLD], ARRAY(SELECT t FROM tickets t WHERE t.id = OLD.ticket_id), -1, NULL);
  PERFORM linecrew_kept_tasks(ARRAY[NEW], ARRAY(SELECT t FROM tickets t WHERE t.id = NEW.ticket_id), 1, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER ticket_tasks_kept_upd AFTER UPDATE OF ticket_id, company_id, unit_id, init_qty, additional_qty ON ticket_tasks
  FOR EACH ROW WHEN ((OLD.ticket_id, OLD.company_id, OLD.unit_id, OLD.init_qty, OLD.additional_qty)
    IS DISTINCT FROM (NEW.ticket_id, NEW.company_id, NEW.unit_id, NEW.init_qty, NEW.additional_qty))
  EXECUTE FUNCTION linecrew_kept_tasks_upd();--> statement-breakpoint

-- A ticket put on an invoice or taken off one: its tasks move between "invoiced" groups.
CREATE FUNCTION linecrew_kept_billed_ins() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tks tickets[] := ARRAY(SELECT t FROM tickets t WHERE t.id = ANY (ARRAY(SELECT n.ticket_id FROM added n)));
BEGIN
  PERFORM linecrew_kept_tickets(tks, -1, false, false);
  PERFORM linecrew_kept_tickets(tks, 1, false, true);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER billed_tickets_kept_ins AFTER INSERT ON billed_tickets REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_billed_ins();--> statement-breakpoint
CREATE FUNCTION linecrew_kept_billed_del() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tks tickets[] := ARRAY(SELECT t FROM tickets t WHERE t.id = ANY (ARRAY(SELECT o.ticket_id FROM gone o)));
BEGIN
  PERFORM linecrew_kept_tickets(tks, -1, false, true);
  PERFORM linecrew_kept_tickets(tks, 1, false, false);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER billed_tickets_kept_del AFTER DELETE ON billed_tickets REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_billed_del();--> statement-breakpoint

-- A job deleted: its figures go with it.
CREATE FUNCTION linecrew_kept_jobs_del() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids integer[] := ARRAY(SELECT o.id FROM gone o);
BEGIN
  -- Their tickets were not taken away one by one (linecrew_kept_tickets_del): their completed
  -- quantities leave the company's weeks here.
  UPDATE company_unit_weeks w SET actual_qty = w.actual_qty - g.qty, tasks = w.tasks - g.tasks
  FROM (SELECT company_id, date_trunc('week', day::timestamp)::date AS week, unit_id, sum(actual_qty) AS qty, sum(tasks) AS tasks
        FROM job_unit_days WHERE job_id = ANY (ids) GROUP BY 1, 2, 3) g
  WHERE w.company_id = g.company_id AND w.week = g.week AND w.unit_id = g.unit_id;
  DELETE FROM company_unit_weeks WHERE tasks = 0 AND company_id = ANY (ARRAY(SELECT DISTINCT o.company_id FROM gone o));
  DELETE FROM job_unit_figures WHERE job_id = ANY (ids);
  DELETE FROM job_ticket_days WHERE job_id = ANY (ids);
  DELETE FROM job_unit_days WHERE job_id = ANY (ids);
  DELETE FROM job_figures WHERE job_id = ANY (ids);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER jobs_kept_del AFTER DELETE ON jobs REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_jobs_del();--> statement-breakpoint

-- A unit's price or code changed: the amounts of the jobs that use it, once per statement.
CREATE FUNCTION linecrew_kept_units_upd() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE changed integer[] := ARRAY(SELECT n.id FROM after_rows n JOIN before_rows o ON o.id = n.id
  WHERE (n.code, n.unit_price) IS DISTINCT FROM (o.code, o.unit_price));
BEGIN
  IF cardinality(changed) > 0 THEN
    PERFORM linecrew_kept_job_figures(ARRAY(SELECT DISTINCT f.job_id FROM job_unit_figures f WHERE f.unit_id = ANY (changed)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER units_kept_upd AFTER UPDATE ON units REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_kept_units_upd();--> statement-breakpoint

-- The company's calendar changed: its completion days are other days now.
CREATE FUNCTION linecrew_kept_company_zone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM job_ticket_days WHERE company_id = NEW.id AND NOT open;
  DELETE FROM job_unit_days WHERE company_id = NEW.id;
  INSERT INTO job_ticket_days (company_id, job_id, open, day, tickets)
  SELECT t.company_id, t.job_id, false, (t.actual_completion_date AT TIME ZONE NEW.time_zone)::date, count(*)
  FROM tickets t WHERE t.company_id = NEW.id AND t.actual_completion_date IS NOT NULL
  GROUP BY 1, 2, 3, 4;
  INSERT INTO job_unit_days (company_id, job_id, day, unit_id, actual_qty, tasks)
  SELECT t.company_id, t.job_id, (t.actual_completion_date AT TIME ZONE NEW.time_zone)::date, tt.unit_id,
    sum(tt.init_qty::numeric + tt.additional_qty::numeric), count(*)
  FROM ticket_tasks tt JOIN tickets t ON t.id = tt.ticket_id
  WHERE t.company_id = NEW.id AND t.actual_completion_date IS NOT NULL
  GROUP BY 1, 2, 3, 4;
  DELETE FROM company_unit_weeks WHERE company_id = NEW.id;
  INSERT INTO company_unit_weeks (company_id, week, unit_id, actual_qty, tasks)
  SELECT company_id, date_trunc('week', day::timestamp)::date, unit_id, sum(actual_qty), sum(tasks)
  FROM job_unit_days WHERE company_id = NEW.id GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER companies_kept_zone AFTER UPDATE OF time_zone ON companies
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone)
  EXECUTE FUNCTION linecrew_kept_company_zone();--> statement-breakpoint

-- The backfill, set-based, before the keys and indexes (each built once, by one sort, after).
SELECT linecrew_kept_rebuild();--> statement-breakpoint
ALTER TABLE "job_unit_figures" ADD PRIMARY KEY ("job_id", "unit_id", "complete", "invoiced", "marked_billed", "assigned_to");--> statement-breakpoint
CREATE INDEX "job_unit_figures_unit_idx" ON "job_unit_figures" ("unit_id");--> statement-breakpoint
ALTER TABLE "job_ticket_days" ADD CONSTRAINT "job_ticket_days_key" UNIQUE NULLS NOT DISTINCT ("job_id", "open", "day");--> statement-breakpoint
CREATE INDEX "job_ticket_days_open_idx" ON "job_ticket_days" ("company_id", "job_id") WHERE "open";--> statement-breakpoint
CREATE INDEX "job_ticket_days_done_idx" ON "job_ticket_days" ("company_id", "day") WHERE NOT "open";--> statement-breakpoint
ALTER TABLE "job_unit_days" ADD PRIMARY KEY ("job_id", "day", "unit_id");--> statement-breakpoint
CREATE INDEX "job_unit_days_day_idx" ON "job_unit_days" ("company_id", "day");--> statement-breakpoint
ALTER TABLE "company_unit_weeks" ADD PRIMARY KEY ("company_id", "week", "unit_id");
