-- A task, note or photo added to a ticket touches the ticket (0004, 0011), so that the job page
-- and its fingerprint see the change. A staged import (0008, decision 027) adds its tasks to
-- tickets it has just created under a job no reader can see yet: touching them wrote a second
-- version of each new ticket, ~2,500 row updates for the 10,000-row bench workbook. Those tickets
-- are left as they are; publication changes the job row, which every reader's fingerprint includes.
CREATE OR REPLACE FUNCTION linecrew_touch_tickets_of_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets t SET version = t.version
  WHERE t.id = ANY (ARRAY(SELECT DISTINCT ticket_id FROM changed))
    AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = t.job_id AND j.import_pending);
  RETURN NULL;
END $$;
