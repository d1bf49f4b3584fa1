-- The statement triggers of 0004 and 0009 touch the tickets whose tasks, photos or notes a
-- statement added, removed or changed. Written as `id IN (SELECT … FROM <transition table>)`, the
-- planner, which has no statistics for a transition table, scanned the whole tickets table for
-- each statement: 40 % of the time of a 10,000-row import's task inserts on PGlite (0.2 s of
-- 0.5 s), and more as the company's tickets grow. `id = ANY (ARRAY(…))` looks each ticket up by
-- its primary key. Same rows touched, same no-op update.
CREATE OR REPLACE FUNCTION linecrew_touch_tickets_of_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET version = version WHERE id = ANY (ARRAY(SELECT DISTINCT ticket_id FROM changed));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION linecrew_touch_tickets_of_old_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET version = version WHERE id = ANY (ARRAY(SELECT DISTINCT ticket_id FROM gone));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION linecrew_touch_tickets_of_updated_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET version = version WHERE id = ANY (ARRAY(SELECT ticket_id FROM changed UNION SELECT ticket_id FROM gone));
  RETURN NULL;
END $$;
