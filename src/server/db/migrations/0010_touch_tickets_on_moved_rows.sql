-- A ticket row of the job page counts its tasks, photos and notes, and the kept reply is rebuilt
-- ticket by ticket from each ticket's xmin (jobs/job-page-reply.ts). 0004 touches a ticket when
-- one of those rows is added or removed; moving one to another ticket (a merge, plain SQL) changes
-- both tickets' counts, so it touches both too. Row-level, only for a real move (a statement
-- trigger with a column list cannot have transition tables). A task moved is already covered by
-- 0009's statement trigger on every task update, which touches the old and the new ticket.
CREATE FUNCTION linecrew_touch_tickets_of_moved_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET version = version WHERE id IN (OLD.ticket_id, NEW.ticket_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER images_touch_tickets_moved AFTER UPDATE OF ticket_id ON images FOR EACH ROW
  WHEN (OLD.ticket_id IS DISTINCT FROM NEW.ticket_id) EXECUTE FUNCTION linecrew_touch_tickets_of_moved_row();--> statement-breakpoint
CREATE TRIGGER notes_touch_tickets_moved AFTER UPDATE OF ticket_id ON notes FOR EACH ROW
  WHEN (OLD.ticket_id IS DISTINCT FROM NEW.ticket_id) EXECUTE FUNCTION linecrew_touch_tickets_of_moved_row();
