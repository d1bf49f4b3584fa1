-- docs/product/sessions-and-safety.md §9 "names that look alike": job numbers, unit codes, pole and line
-- names stored normalised; look-alikes that would clash are listed in name_clashes, not merged.
CREATE TABLE "name_clashes" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"company_id" integer NOT NULL,
	"row_id" integer NOT NULL,
	"original" text NOT NULL,
	"normalized" text NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- docs/product/sessions-and-safety.md §9 "names that look alike": the rule of src/shared/names.ts normalizeCode, in SQL:
-- NFKC, invisible characters (zero-width, soft hyphen, BOM, variation selectors, bidirectional
-- controls) removed, blanks collapsed to one space, trimmed. The two character lists are the same.
CREATE OR REPLACE FUNCTION linecrew_normalize_code(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT btrim(regexp_replace(
    regexp_replace(normalize(t, NFKC), '[\u00ad\u034f\u061c\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]', '', 'g'),
    '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+', ' ', 'g'), ' ')
$$;
--> statement-breakpoint
-- Normalises the job numbers, unit codes and pole + line names stored before the rule. Rows that
-- would become equal to another row of their company (and utility) are not changed: each of them
-- is listed in name_clashes for a person to rename or merge, and the migration goes on (a unique
-- index would otherwise stop it, and the server with it). Returns how many rows it listed.
CREATE OR REPLACE FUNCTION linecrew_normalize_names() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  listed integer := 0;
  n integer;
BEGIN
  WITH v AS (SELECT id, company_id, job_number AS original, linecrew_normalize_code(job_number) AS norm FROM jobs),
  g AS (SELECT company_id, norm FROM v GROUP BY company_id, norm HAVING count(*) > 1 AND bool_or(original <> norm))
  INSERT INTO name_clashes (kind, company_id, row_id, original, normalized)
  SELECT 'jobs.job_number', v.company_id, v.id, v.original, v.norm FROM v JOIN g USING (company_id, norm)
  WHERE NOT EXISTS (SELECT 1 FROM name_clashes c WHERE c.kind = 'jobs.job_number' AND c.row_id = v.id);
  GET DIAGNOSTICS n = ROW_COUNT;
  listed := listed + n;
  UPDATE jobs j SET job_number = linecrew_normalize_code(j.job_number)
  WHERE j.job_number <> linecrew_normalize_code(j.job_number)
    AND NOT EXISTS (SELECT 1 FROM name_clashes c WHERE c.kind = 'jobs.job_number' AND c.row_id = j.id);

  WITH v AS (SELECT id, company_id, utility_id, code AS original, linecrew_normalize_code(code) AS norm FROM units),
  g AS (SELECT company_id, utility_id, norm FROM v GROUP BY company_id, utility_id, norm HAVING count(*) > 1 AND bool_or(original <> norm))
  INSERT INTO name_clashes (kind, company_id, row_id, original, normalized)
  SELECT 'units.code', v.company_id, v.id, v.original, v.norm FROM v JOIN g USING (company_id, utility_id, norm)
  WHERE NOT EXISTS (SELECT 1 FROM name_clashes c WHERE c.kind = 'units.code' AND c.row_id = v.id);
  GET DIAGNOSTICS n = ROW_COUNT;
  listed := listed + n;
  UPDATE units u SET code = linecrew_normalize_code(u.code)
  WHERE u.code <> linecrew_normalize_code(u.code)
    AND NOT EXISTS (SELECT 1 FROM name_clashes c WHERE c.kind = 'units.code' AND c.row_id = u.id);

  -- Poles have no unique index: a pole is matched by utility, pole and line in any letter case.
  WITH v AS (
    SELECT id, company_id, utility_id, pole_name || E'\t' || line_name AS original,
           linecrew_normalize_code(pole_name) || E'\t' || linecrew_normalize_code(line_name) AS norm
    FROM poles),
  g AS (SELECT company_id, utility_id, lower(norm) AS key FROM v GROUP BY company_id, utility_id, lower(norm) HAVING count(*) > 1 AND bool_or(original <> norm))
  INSERT INTO name_clashes (kind, company_id, row_id, original, normalized)
  SELECT 'poles.pole_name+line_name', v.company_id, v.id, v.original, v.norm FROM v JOIN g ON g.company_id = v.company_id AND g.utility_id IS NOT DISTINCT FROM v.utility_id AND g.key = lower(v.norm)
  WHERE NOT EXISTS (SELECT 1 FROM name_clashes c WHERE c.kind = 'poles.pole_name+line_name' AND c.row_id = v.id);
  GET DIAGNOSTICS n = ROW_COUNT;
  listed := listed + n;
  UPDATE poles p SET pole_name = linecrew_normalize_code(p.pole_name), line_name = linecrew_normalize_code(p.line_name)
  WHERE (p.pole_name <> linecrew_normalize_code(p.pole_name) OR p.line_name <> linecrew_normalize_code(p.line_name))
    AND NOT EXISTS (SELECT 1 FROM name_clashes c WHERE c.kind = 'poles.pole_name+line_name' AND c.row_id = p.id);
  RETURN listed;
END $$;
--> statement-breakpoint
SELECT linecrew_normalize_names();
