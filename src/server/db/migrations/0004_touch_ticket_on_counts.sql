-- The job page's rows count each ticket's tasks, photos and notes, and its fingerprint
-- (jobs.repository.ts jobFingerprint) reads only the xmin of the job's ticket rows. So adding or
-- removing a task, photo or note gives its ticket a new row version (a no-op update: version and
-- every value stay), whichever code or SQL did it, as 0002 does for renames. Statement-level
-- triggers with transition tables: an import that adds thousands of tasks touches each ticket
-- once, not once per task.
CREATE FUNCTION linecrew_touch_tickets_of_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET version = version WHERE id IN (SELECT DISTINCT ticket_id FROM changed);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION linecrew_touch_tickets_of_old_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET version = version WHERE id IN (SELECT DISTINCT ticket_id FROM gone);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER ticket_tasks_touch_ticket_ins AFTER INSERT ON ticket_tasks REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_new_rows();--> statement-breakpoint
CREATE TRIGGER ticket_tasks_touch_ticket_del AFTER DELETE ON ticket_tasks REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_old_rows();--> statement-breakpoint
CREATE TRIGGER images_touch_ticket_ins AFTER INSERT ON images REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_new_rows();--> statement-breakpoint
CREATE TRIGGER images_touch_ticket_del AFTER DELETE ON images REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_old_rows();--> statement-breakpoint
CREATE TRIGGER notes_touch_ticket_ins AFTER INSERT ON notes REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_new_rows();--> statement-breakpoint
CREATE TRIGGER notes_touch_ticket_del AFTER DELETE ON notes REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_old_rows();
