-- The fingerprints of GET /jobs (jobs.repository.ts jobListFingerprint) and of a job's production
-- (production.repository.ts productionFingerprint) read the xmin of jobs and tickets only, not of
-- the thousands of tasks, users and utilities they show (joining or scanning those cost more than
-- the rest of the statement). So, as 0002 and 0004 do, whichever code or SQL writes them:
-- changing a task (quantities, unit, moved to another ticket) gives its tickets a new row
-- version, once per ticket per statement; renaming a person gives the jobs that name them as
-- creator or foreman one, and renaming a utility the jobs of that utility. No-op updates: version
-- and every value stay as they are.
CREATE FUNCTION linecrew_touch_tickets_of_updated_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET version = version WHERE id IN (SELECT ticket_id FROM changed UNION SELECT ticket_id FROM gone);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER ticket_tasks_touch_ticket_upd AFTER UPDATE ON ticket_tasks REFERENCING OLD TABLE AS gone NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_updated_rows();--> statement-breakpoint
CREATE FUNCTION linecrew_touch_jobs_of_person() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE jobs SET version = version WHERE created_by = NEW.id OR foreman_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_touch_jobs AFTER UPDATE OF first_name, last_name ON users FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION linecrew_touch_jobs_of_person();--> statement-breakpoint
CREATE FUNCTION linecrew_touch_jobs_of_utility() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE jobs SET version = version WHERE utility_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER utilities_touch_jobs AFTER UPDATE OF code ON utilities FOR EACH ROW
  WHEN (OLD.code IS DISTINCT FROM NEW.code)
  EXECUTE FUNCTION linecrew_touch_jobs_of_utility();
