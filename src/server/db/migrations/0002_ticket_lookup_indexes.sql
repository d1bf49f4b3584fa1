CREATE INDEX "tickets_pole_idx" ON "tickets" USING btree ("pole_id");--> statement-breakpoint
CREATE INDEX "tickets_assigned_to_idx" ON "tickets" USING btree ("assigned_to");--> statement-breakpoint
-- The job page's fingerprint (jobs.repository.ts jobFingerprint) reads the xmin of the job's
-- ticket rows. A ticket row shows its pole's name and line and its assignee's name, so renaming
-- a pole or a person gives the tickets showing them new row versions (a no-op update: version
-- and every value stay as they are), whichever code or SQL did the rename.
CREATE FUNCTION linecrew_touch_tickets_of_pole() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET pole_id = pole_id WHERE pole_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER poles_touch_tickets AFTER UPDATE OF pole_name, line_name ON poles FOR EACH ROW
  WHEN (OLD.pole_name IS DISTINCT FROM NEW.pole_name OR OLD.line_name IS DISTINCT FROM NEW.line_name)
  EXECUTE FUNCTION linecrew_touch_tickets_of_pole();--> statement-breakpoint
CREATE FUNCTION linecrew_touch_tickets_of_assignee() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET assigned_to = assigned_to WHERE assigned_to = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_touch_tickets AFTER UPDATE OF first_name, last_name ON users FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION linecrew_touch_tickets_of_assignee();
