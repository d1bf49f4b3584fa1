-- The paged jobs list (docs/product/scale.md §2, decision 053). pg_trgm gives "contains" an index
-- (trusted since PostgreSQL 13: the database's owner may create it; PGlite loads its build of it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- Lower case as JavaScript's toLowerCase (the shared rules), whatever the database's locale: a
-- cluster made with LC_CTYPE=C (initdb --no-locale, as the CI's) lowers ASCII only, so ICU's root
-- locale does it where the server has ICU; PGlite (no ICU) lowers Unicode with plain lower().
DO $do$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') THEN
    EXECUTE $f$CREATE FUNCTION linecrew_lower(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'select lower(s collate "und-x-icu")'$f$;
  ELSE
    EXECUTE $f$CREATE FUNCTION linecrew_lower(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'select lower(s)'$f$;
  END IF;
END $do$;--> statement-breakpoint
-- The text order of every sortable table, as src/shared/sorting.ts textKey computes it: lower case,
-- each run of digits without its leading zeros and left-padded with zeros to 16 digits (longer runs
-- kept whole), so that compared byte-wise (COLLATE "C") 'J-9' < 'J-10' and 'a' = 'A'. Regular
-- expressions rather than a loop: one expression, so PostgreSQL inlines it and the index on it is
-- used by queries that write the same call. Qualified: an index build (PostgreSQL 17+) resolves
-- names with search_path = pg_catalog only. jobs.list.db.api.test.ts holds it to textKey.
CREATE FUNCTION linecrew_text_key(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select regexp_replace(regexp_replace(regexp_replace(regexp_replace(public.linecrew_lower(coalesce(s, '')),
    '(?<![0-9])0+(?=[0-9])', '', 'g'),
    '([0-9]+)', '0000000000000000\1', 'g'),
    '(?<![0-9])0{16}(?=[1-9][0-9]{16})', '', 'g'),
    '(?<![0-9])0*([0-9]{16})(?![0-9])', '\1', 'g')
$$;--> statement-breakpoint
CREATE INDEX "jobs_number_key_idx" ON "jobs" USING btree ("company_id",linecrew_text_key("job_number") COLLATE "C","id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("company_id","due_date","id");--> statement-breakpoint
CREATE INDEX "jobs_number_trgm_idx" ON "jobs" USING gin (linecrew_lower("job_number") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "jobs_utility_idx" ON "jobs" USING btree ("utility_id");--> statement-breakpoint
CREATE INDEX "jobs_foreman_idx" ON "jobs" USING btree ("foreman_id");--> statement-breakpoint
-- jobs_foreman_idx (foreman_id) finds a foreman's jobs as well: a person is one company's.
DROP INDEX "jobs_company_foreman_idx";
