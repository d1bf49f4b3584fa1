ALTER TABLE "permits" ADD COLUMN "number" text;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "valid_from" date;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "expires_on" date;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "dig_safe_number" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "dig_safe_valid_from" date;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "dig_safe_expires_on" date;--> statement-breakpoint
-- A ticket row carries the earliest expiry of its permits (permit_expires_on: the table's badge
-- and its "Permits: expiring / expired" filter), and the job page's reply is rebuilt ticket by
-- ticket from each ticket row's xmin (decision 028). So, as 0018 does for work orders: adding,
-- changing or removing a permit gives its ticket a new row version, whichever code does it.
CREATE TRIGGER permits_touch_ticket_ins AFTER INSERT ON permits REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_new_rows();--> statement-breakpoint
CREATE TRIGGER permits_touch_ticket_upd AFTER UPDATE ON permits REFERENCING OLD TABLE AS gone NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_updated_rows();--> statement-breakpoint
CREATE TRIGGER permits_touch_ticket_del AFTER DELETE ON permits REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_old_rows();
