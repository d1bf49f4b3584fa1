-- The job page's rows and My Work's carry each ticket's work orders (docs/product/rules.md §4.1, §4.4: the table's Work
-- Order column, the search by work order), and the page's reply is rebuilt ticket by ticket from
-- each ticket row's xmin (decision 028). So, as 0004 and 0009 do for tasks, photos and notes:
-- adding, changing or removing a work order gives its ticket a new row version (a no-op update),
-- whichever code or SQL does it, once per ticket per statement; a staged import's new tickets are
-- left as they are (0013).
CREATE TRIGGER work_orders_touch_ticket_ins AFTER INSERT ON work_orders REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_new_rows();--> statement-breakpoint
CREATE TRIGGER work_orders_touch_ticket_upd AFTER UPDATE ON work_orders REFERENCING OLD TABLE AS gone NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_updated_rows();--> statement-breakpoint
CREATE TRIGGER work_orders_touch_ticket_del AFTER DELETE ON work_orders REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_old_rows();
