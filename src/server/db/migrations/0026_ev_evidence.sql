-- docs/product/records.md §6–§8, decision 047: the completion record (who and where a ticket was marked complete), photo
-- checks (distance_m, flags) and the company's evidence settings.
ALTER TABLE "companies" ADD COLUMN "evidence_radius_m" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "evidence_photos_required" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "distance_m" double precision;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "completed_by" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "completed_lat" double precision;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "completed_lon" double precision;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "completed_accuracy_m" double precision;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Photo checks (docs/product/records.md §7, decision 047): each image's distance_m and flags are
-- written by the database, in ONE function, whichever path changed what they depend on: the
-- photo itself (upload, a merge moving it), its ticket's coordinates or pole (ticket save,
-- import, re-import, merge), its pole's coordinates (pole edit, re-import) or the company's
-- radius. Triggers call it, so no writer (nor a future one, nor plain SQL) can forget it.
-- The great-circle distance on the same sphere as src/shared/distance.ts (haversine, R = 6,371,008.8 m).
CREATE FUNCTION linecrew_distance_m(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN lat1 IS NULL OR lon1 IS NULL OR lat2 IS NULL OR lon2 IS NULL THEN NULL ELSE
    2 * 6371008.8 * asin(least(1, sqrt(
      sin(radians(lat2 - lat1) / 2) ^ 2 + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2))) END
$$;--> statement-breakpoint
-- The flags of docs/product/records.md §7, in a fixed order.
CREATE FUNCTION linecrew_photo_flags(distance double precision, has_position boolean, taken_at timestamptz, job_created timestamptz, radius_m integer)
RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY[
    CASE WHEN distance > radius_m THEN 'far_from_pole' END,
    CASE WHEN taken_at < job_created THEN 'before_job' END,
    CASE WHEN NOT has_position THEN 'no_position' END,
    CASE WHEN taken_at IS NULL THEN 'no_time' END
  ], NULL)
$$;--> statement-breakpoint
-- Rechecks the photos of these tickets (p_tickets) or of the whole company (p_company); only rows
-- whose result changes are written. The place is the ticket's coordinates (where the map and the
-- phone send the crew), else its pole's.
CREATE FUNCTION linecrew_recheck_photos(p_company integer, p_tickets integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE images i SET distance_m = c.distance_m, flags = c.flags
  FROM (
    SELECT x.id, d.distance_m,
      linecrew_photo_flags(d.distance_m, x.geo_lat IS NOT NULL AND x.geo_lon IS NOT NULL, x.taken_at, j.created_at, co.evidence_radius_m) AS flags
    FROM images x
    JOIN tickets t ON t.id = x.ticket_id
    JOIN jobs j ON j.id = t.job_id
    JOIN companies co ON co.id = t.company_id
    LEFT JOIN poles p ON p.id = t.pole_id
    CROSS JOIN LATERAL (SELECT CASE WHEN t.geo_lat IS NOT NULL AND t.geo_lon IS NOT NULL
        THEN linecrew_distance_m(x.geo_lat, x.geo_lon, t.geo_lat, t.geo_lon)
        ELSE linecrew_distance_m(x.geo_lat, x.geo_lon, p.geo_lat, p.geo_lon) END AS distance_m) d
    WHERE (p_company IS NULL OR x.company_id = p_company) AND (p_tickets IS NULL OR x.ticket_id = ANY (p_tickets))
  ) c
  WHERE i.id = c.id AND (i.distance_m IS DISTINCT FROM c.distance_m OR i.flags IS DISTINCT FROM c.flags)
$$;--> statement-breakpoint
CREATE FUNCTION linecrew_recheck_new_photos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_recheck_photos(NULL, ARRAY(SELECT DISTINCT ticket_id FROM changed));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER images_recheck_ins AFTER INSERT ON images REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_recheck_new_photos();--> statement-breakpoint
CREATE FUNCTION linecrew_recheck_changed_photo() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_recheck_photos(NULL, ARRAY[NEW.ticket_id]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER images_recheck_upd AFTER UPDATE OF ticket_id, geo_lat, geo_lon, taken_at ON images FOR EACH ROW
  WHEN (OLD.ticket_id IS DISTINCT FROM NEW.ticket_id OR OLD.geo_lat IS DISTINCT FROM NEW.geo_lat OR OLD.geo_lon IS DISTINCT FROM NEW.geo_lon OR OLD.taken_at IS DISTINCT FROM NEW.taken_at)
  EXECUTE FUNCTION linecrew_recheck_changed_photo();--> statement-breakpoint
CREATE FUNCTION linecrew_recheck_ticket_photos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_recheck_photos(NULL, ARRAY[NEW.id]);
  RETURN NULL;
END $$;--> statement-breakpoint
-- Row-level with WHEN: an import updating thousands of tickets without moving them runs nothing.
CREATE TRIGGER tickets_recheck_photos AFTER UPDATE OF geo_lat, geo_lon, pole_id ON tickets FOR EACH ROW
  WHEN (OLD.geo_lat IS DISTINCT FROM NEW.geo_lat OR OLD.geo_lon IS DISTINCT FROM NEW.geo_lon OR OLD.pole_id IS DISTINCT FROM NEW.pole_id)
  EXECUTE FUNCTION linecrew_recheck_ticket_photos();--> statement-breakpoint
CREATE FUNCTION linecrew_recheck_pole_photos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_recheck_photos(NULL, ARRAY(SELECT id FROM tickets WHERE pole_id = NEW.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER poles_recheck_photos AFTER UPDATE OF geo_lat, geo_lon ON poles FOR EACH ROW
  WHEN (OLD.geo_lat IS DISTINCT FROM NEW.geo_lat OR OLD.geo_lon IS DISTINCT FROM NEW.geo_lon)
  EXECUTE FUNCTION linecrew_recheck_pole_photos();--> statement-breakpoint
CREATE FUNCTION linecrew_recheck_company_photos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM linecrew_recheck_photos(NEW.id, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER companies_recheck_photos AFTER UPDATE OF evidence_radius_m ON companies FOR EACH ROW
  WHEN (OLD.evidence_radius_m IS DISTINCT FROM NEW.evidence_radius_m)
  EXECUTE FUNCTION linecrew_recheck_company_photos();--> statement-breakpoint
-- A ticket row counts its evidence photos (the job page, My Work; decision 028 rebuilds the job
-- page by each ticket's xmin): a photo whose checks changed touches its ticket, as 0004 does for
-- a photo added. Statement-level with both transition tables (no column list is allowed then);
-- only rows whose distance or flags changed count.
CREATE FUNCTION linecrew_touch_tickets_of_rechecked_photos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets t SET version = t.version
  WHERE t.id = ANY (ARRAY(SELECT DISTINCT c.ticket_id FROM changed c JOIN gone g ON g.id = c.id
      WHERE c.flags IS DISTINCT FROM g.flags OR c.distance_m IS DISTINCT FROM g.distance_m));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER images_touch_ticket_rechecked AFTER UPDATE ON images REFERENCING OLD TABLE AS gone NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION linecrew_touch_tickets_of_rechecked_photos();--> statement-breakpoint
-- The photos already stored get their checks now.
SELECT linecrew_recheck_photos(NULL, NULL);
