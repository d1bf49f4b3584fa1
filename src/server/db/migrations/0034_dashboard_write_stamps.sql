-- GET /dashboard served from the reply cache (decision 062, docs/product/scale.md §3): its reply is
-- kept as bytes per company and query, and every request first reads a fingerprint that changes
-- with ANY committed write to what the dashboard reads, however it was made (API, import, a
-- direct SQL update). At ten years' size the reply costs ~75 ms of SQL (~35,000 index entries
-- read twice) and the fingerprint must cost a small fraction of that: a Σ xmin over the rows read
-- (the job page's method) would read them all.
--
-- dashboard_stamps: per company and per database backend (pg_backend_pid()), how many write
-- transactions that backend committed to what the dashboard reads. The fingerprint is Σ writes
-- (and Σ xmin) over the company's rows: a handful, one per live connection.
-- - Exact: each committed write adds 1 to its backend's row, so Σ writes strictly grows; a reply
--   built after the fingerprint was read is never served for a later write.
-- - No waiting, no deadlock: a backend runs one transaction at a time, so no two transactions
--   ever update the same row (a per-company counter row would queue every ticket save of the
--   company behind the one before it, until commit, and could deadlock with the rows each holds).
-- - Bounded: a backend's first write folds the rows of backends that are gone (not in
--   pg_stat_activity) into its own, Σ writes unchanged; rows another backend is folding are
--   skipped (SKIP LOCKED), never waited for.
-- - Once per transaction and company (a transaction-local setting lists the companies stamped):
--   a ticket save's trigger chain writes five kept tables and stamps once.
-- Σ xmin guards a restored database, whose counters may repeat an earlier Σ writes.
--
-- Stamped by: the kept tables the dashboard reads (job_dashboard, job_ticket_days, job_figures,
-- company_unit_weeks; job_unit_days moves with company_unit_weeks in the same trigger function,
-- and a job's publication with job_dashboard), whichever statement wrote them; users (names,
-- membership) and units (prices). The company's own row (time zone, currency) is read in the
-- fingerprint itself (its xmin).
CREATE TABLE "dashboard_stamps" (
  "company_id" integer NOT NULL,
  "backend" integer NOT NULL,
  "writes" bigint NOT NULL,
  PRIMARY KEY ("company_id", "backend")
);--> statement-breakpoint

-- One more committed write to the dashboard's data of each company in p_company (nulls and repeats
-- ignored), once per transaction.
CREATE FUNCTION linecrew_dash_stamp(p_company integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  done text := coalesce(current_setting('linecrew.dash_stamped', true), '');
  todo integer[] := ARRAY(SELECT DISTINCT x FROM unnest(p_company) AS x
    WHERE x IS NOT NULL AND NOT (x::text = ANY (string_to_array(done, ','))));
  c integer;
  folded bigint;
BEGIN
  IF cardinality(todo) = 0 THEN RETURN; END IF;
  FOREACH c IN ARRAY todo LOOP
    UPDATE dashboard_stamps SET writes = writes + 1 WHERE company_id = c AND backend = pg_backend_pid();
    IF NOT FOUND THEN
      WITH gone AS (
        DELETE FROM dashboard_stamps WHERE ctid IN (
          SELECT s.ctid FROM dashboard_stamps s
          WHERE s.company_id = c AND s.backend <> pg_backend_pid()
            AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = s.backend)
          FOR UPDATE SKIP LOCKED)
        RETURNING writes)
      SELECT coalesce(sum(writes), 0) INTO folded FROM gone;
      INSERT INTO dashboard_stamps (company_id, backend, writes) VALUES (c, pg_backend_pid(), folded + 1);
    END IF;
  END LOOP;
  PERFORM set_config('linecrew.dash_stamped', done || ',' || array_to_string(todo, ','), true);
END $$;--> statement-breakpoint

-- The statement-level stamps, one function per kind of transition table (every table stamped
-- this way has a company_id).
CREATE FUNCTION linecrew_dash_stamp_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_stamp(ARRAY(SELECT DISTINCT n.company_id FROM added n));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION linecrew_dash_stamp_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_stamp(ARRAY(SELECT n.company_id FROM after_rows n UNION SELECT o.company_id FROM before_rows o));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION linecrew_dash_stamp_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_dash_stamp(ARRAY(SELECT DISTINCT o.company_id FROM gone o));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER job_dashboard_stamp_ins AFTER INSERT ON job_dashboard REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_ins();--> statement-breakpoint
CREATE TRIGGER job_dashboard_stamp_upd AFTER UPDATE ON job_dashboard REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_upd();--> statement-breakpoint
CREATE TRIGGER job_dashboard_stamp_del AFTER DELETE ON job_dashboard REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_del();--> statement-breakpoint
CREATE TRIGGER job_ticket_days_stamp_ins AFTER INSERT ON job_ticket_days REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_ins();--> statement-breakpoint
CREATE TRIGGER job_ticket_days_stamp_upd AFTER UPDATE ON job_ticket_days REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_upd();--> statement-breakpoint
CREATE TRIGGER job_ticket_days_stamp_del AFTER DELETE ON job_ticket_days REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_del();--> statement-breakpoint
CREATE TRIGGER job_figures_stamp_ins AFTER INSERT ON job_figures REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_ins();--> statement-breakpoint
CREATE TRIGGER job_figures_stamp_upd AFTER UPDATE ON job_figures REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_upd();--> statement-breakpoint
CREATE TRIGGER job_figures_stamp_del AFTER DELETE ON job_figures REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_del();--> statement-breakpoint
CREATE TRIGGER company_unit_weeks_stamp_ins AFTER INSERT ON company_unit_weeks REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_ins();--> statement-breakpoint
CREATE TRIGGER company_unit_weeks_stamp_upd AFTER UPDATE ON company_unit_weeks REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_upd();--> statement-breakpoint
CREATE TRIGGER company_unit_weeks_stamp_del AFTER DELETE ON company_unit_weeks REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_dash_stamp_del();--> statement-breakpoint

-- Users and units: few rows, rarely written; row-level, only for what the dashboard reads of them
-- (a sign-in that touches a user's row stamps nothing).
CREATE FUNCTION linecrew_dash_stamp_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM linecrew_dash_stamp(ARRAY[OLD.company_id]);
  ELSE
    PERFORM linecrew_dash_stamp(ARRAY[OLD.company_id, NEW.company_id]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_dash_stamp_upd AFTER UPDATE ON users
  FOR EACH ROW WHEN ((OLD.company_id, OLD.first_name, OLD.last_name) IS DISTINCT FROM (NEW.company_id, NEW.first_name, NEW.last_name))
  EXECUTE FUNCTION linecrew_dash_stamp_row();--> statement-breakpoint
CREATE TRIGGER users_dash_stamp_del AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION linecrew_dash_stamp_row();--> statement-breakpoint
CREATE TRIGGER units_dash_stamp_upd AFTER UPDATE ON units
  FOR EACH ROW WHEN ((OLD.company_id, OLD.unit_price) IS DISTINCT FROM (NEW.company_id, NEW.unit_price))
  EXECUTE FUNCTION linecrew_dash_stamp_row();--> statement-breakpoint
CREATE TRIGGER units_dash_stamp_del AFTER DELETE ON units
  FOR EACH ROW EXECUTE FUNCTION linecrew_dash_stamp_row();
