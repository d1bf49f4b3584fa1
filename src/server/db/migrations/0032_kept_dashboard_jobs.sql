-- The dashboard's and the jobs page's per-company figures kept as the data changes (docs/product/
-- scale.md §3, decision 059 amended). At ten years' size GET /dashboard summed ~36,000 jobs' rows
-- on each request (3.7 s, 6.1 MB) and GET /jobs?limit= counted 100,000 jobs on each page.
--
-- job_dashboard: one row per job: its company, whether it is published (not import_pending,
--   decision 027), its foreman, its number's sort key (linecrew_text_key, migration 0029), its open
--   tickets (Σ job_ticket_days where open) and its unbilled completed amount (job_figures). The
--   dashboard reads its totals and by-foreman figures from here (one small index), and its first
--   jobs in the order it shows them from an index on (open desc, number key).
-- company_job_counts: per company, its published jobs (the jobs page's total).
-- Kept by triggers on what they mirror (jobs, job_ticket_days, job_figures), statement-level with
-- transition tables where a statement may write many rows, so every write path keeps them and a
-- rolled-back write leaves them as they were. src/server/test/kept-figures.ts holds them to a
-- from-scratch count after every API test file.
CREATE TABLE "job_dashboard" (
  "job_id" integer PRIMARY KEY REFERENCES "jobs" ("id") ON DELETE CASCADE,
  "company_id" integer NOT NULL,
  "published" boolean NOT NULL,
  "foreman_id" integer,
  "number_key" text COLLATE "C" NOT NULL,
  "open" integer NOT NULL DEFAULT 0,
  "unbilled_amount" numeric NOT NULL DEFAULT 0
);--> statement-breakpoint
CREATE TABLE "company_job_counts" (
  "company_id" integer PRIMARY KEY,
  "published" integer NOT NULL
);--> statement-breakpoint

-- Published jobs per company, changed by `n` for each row of (company_id, n); a count at 0 goes.
CREATE FUNCTION linecrew_dash_count(p_company integer[], p_n integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_job_counts AS c (company_id, published)
  SELECT x.company_id, sum(x.n)::int FROM unnest(p_company, p_n) AS x(company_id, n) GROUP BY 1 HAVING sum(x.n) <> 0
  ON CONFLICT (company_id) DO UPDATE SET published = c.published + excluded.published;
  DELETE FROM company_job_counts WHERE company_id = ANY (p_company) AND published = 0;
END $$;--> statement-breakpoint

-- Jobs: a new one has no tickets yet; a change of company, publication, foreman or number moves
-- its row; a deleted one's row goes with it (the foreign key).
CREATE FUNCTION linecrew_dash_jobs_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_dashboard (job_id, company_id, published, foreman_id, number_key)
  SELECT n.id, n.company_id, NOT n.import_pending, n.foreman_id, linecrew_text_key(n.job_number) FROM added n;
  PERFORM linecrew_dash_count(ARRAY(SELECT n.company_id FROM added n WHERE NOT n.import_pending), ARRAY(SELECT 1 FROM added n WHERE NOT n.import_pending));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER jobs_dash_ins AFTER INSERT ON jobs REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_jobs_ins();--> statement-breakpoint
CREATE FUNCTION linecrew_dash_jobs_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE job_dashboard SET company_id = NEW.company_id, published = NOT NEW.import_pending, foreman_id = NEW.foreman_id,
    number_key = linecrew_text_key(NEW.job_number)
  WHERE job_id = NEW.id;
  IF (OLD.company_id, OLD.import_pending) IS DISTINCT FROM (NEW.company_id, NEW.import_pending) THEN
    PERFORM linecrew_dash_count(ARRAY[OLD.company_id, NEW.company_id],
      ARRAY[CASE WHEN OLD.import_pending THEN 0 ELSE -1 END, CASE WHEN NEW.import_pending THEN 0 ELSE 1 END]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER jobs_dash_upd AFTER UPDATE OF company_id, import_pending, foreman_id, job_number ON jobs
  FOR EACH ROW WHEN ((OLD.company_id, OLD.import_pending, OLD.foreman_id, OLD.job_number)
    IS DISTINCT FROM (NEW.company_id, NEW.import_pending, NEW.foreman_id, NEW.job_number))
  EXECUTE FUNCTION linecrew_dash_jobs_upd();--> statement-breakpoint
CREATE FUNCTION linecrew_dash_jobs_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_count(ARRAY(SELECT o.company_id FROM gone o WHERE NOT o.import_pending), ARRAY(SELECT -1 FROM gone o WHERE NOT o.import_pending));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER jobs_dash_del AFTER DELETE ON jobs REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_jobs_del();--> statement-breakpoint

-- Open tickets: the open rows of job_ticket_days added, changed (ON CONFLICT DO UPDATE) or gone.
-- A job deleted has no row left to change (its rows go after it: nothing to do).
CREATE FUNCTION linecrew_dash_open(p_job integer[], p_n integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE job_dashboard d SET open = d.open + s.n
  FROM (SELECT x.job_id, sum(x.n)::int AS n FROM unnest(p_job, p_n) AS x(job_id, n) GROUP BY 1) s
  WHERE d.job_id = s.job_id AND s.n <> 0;
END $$;--> statement-breakpoint
CREATE FUNCTION linecrew_dash_days_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_open(ARRAY(SELECT n.job_id FROM added n WHERE n.open), ARRAY(SELECT n.tickets FROM added n WHERE n.open));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER job_ticket_days_dash_ins AFTER INSERT ON job_ticket_days REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_days_ins();--> statement-breakpoint
CREATE FUNCTION linecrew_dash_days_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_open(
    ARRAY(SELECT n.job_id FROM after_rows n WHERE n.open UNION ALL SELECT o.job_id FROM before_rows o WHERE o.open),
    ARRAY(SELECT n.tickets FROM after_rows n WHERE n.open UNION ALL SELECT -o.tickets FROM before_rows o WHERE o.open));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER job_ticket_days_dash_upd AFTER UPDATE ON job_ticket_days REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_days_upd();--> statement-breakpoint
CREATE FUNCTION linecrew_dash_days_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_open(ARRAY(SELECT o.job_id FROM gone o WHERE o.open), ARRAY(SELECT -o.tickets FROM gone o WHERE o.open));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER job_ticket_days_dash_del AFTER DELETE ON job_ticket_days REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_days_del();--> statement-breakpoint

-- Unbilled completed amount: job_figures rows written (linecrew_kept_job_figures deletes and
-- inserts a job's row) set the job's amount; a job whose row goes without a new one has none.
CREATE FUNCTION linecrew_dash_unbilled(p_job integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE job_dashboard d SET unbilled_amount = coalesce(f.unbilled_amount, 0)
  FROM unnest(p_job) AS x(job_id) LEFT JOIN job_figures f ON f.job_id = x.job_id
  WHERE d.job_id = x.job_id AND d.unbilled_amount IS DISTINCT FROM coalesce(f.unbilled_amount, 0);
END $$;--> statement-breakpoint
CREATE FUNCTION linecrew_dash_figures_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_unbilled(ARRAY(SELECT DISTINCT n.job_id FROM added n));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER job_figures_dash_ins AFTER INSERT ON job_figures REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_figures_ins();--> statement-breakpoint
CREATE FUNCTION linecrew_dash_figures_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_unbilled(ARRAY(SELECT n.job_id FROM after_rows n UNION SELECT o.job_id FROM before_rows o));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER job_figures_dash_upd AFTER UPDATE ON job_figures REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_figures_upd();--> statement-breakpoint
CREATE FUNCTION linecrew_dash_figures_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_unbilled(ARRAY(SELECT DISTINCT o.job_id FROM gone o));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER job_figures_dash_del AFTER DELETE ON job_figures REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_figures_del();--> statement-breakpoint

-- Both tables from scratch, set-based (this migration's backfill; the large bench data, written
-- with triggers off, calls it after linecrew_kept_rebuild).
CREATE FUNCTION linecrew_dash_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM job_dashboard;
  INSERT INTO job_dashboard (job_id, company_id, published, foreman_id, number_key, open, unbilled_amount)
  SELECT j.id, j.company_id, NOT j.import_pending, j.foreman_id, linecrew_text_key(j.job_number), coalesce(k.open, 0), coalesce(f.unbilled_amount, 0)
  FROM jobs j
  LEFT JOIN (SELECT job_id, sum(tickets)::int AS open FROM job_ticket_days WHERE open GROUP BY job_id) k ON k.job_id = j.id
  LEFT JOIN job_figures f ON f.job_id = j.id;
  DELETE FROM company_job_counts;
  INSERT INTO company_job_counts (company_id, published)
  SELECT company_id, count(*)::int FROM jobs WHERE NOT import_pending GROUP BY company_id;
END $$;--> statement-breakpoint
SELECT linecrew_dash_rebuild();--> statement-breakpoint

-- The dashboard's first jobs in its order (most overdue, most open, job number): read in index
-- order; its totals and by-foreman figures: the jobs with something to show, foreman by foreman;
-- its last jobs (nothing open, work to bill), by number.
CREATE INDEX "job_dashboard_open_idx" ON "job_dashboard" ("company_id", "open" DESC, "number_key", "job_id") WHERE "published" AND "open" > 0;--> statement-breakpoint
CREATE INDEX "job_dashboard_foreman_idx" ON "job_dashboard" ("company_id", "foreman_id") INCLUDE ("open", "unbilled_amount") WHERE "published" AND ("open" > 0 OR "unbilled_amount" <> 0);--> statement-breakpoint
CREATE INDEX "job_dashboard_unbilled_idx" ON "job_dashboard" ("company_id", "number_key", "job_id") WHERE "published" AND "open" = 0 AND "unbilled_amount" <> 0;--> statement-breakpoint
-- Open tickets by due date: those not overdue yet (due today or later, or never) are few.
CREATE INDEX "job_ticket_days_due_idx" ON "job_ticket_days" ("company_id", "day") INCLUDE ("job_id", "tickets") WHERE "open";
