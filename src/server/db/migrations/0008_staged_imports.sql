-- Staged imports (decision 027): a new job's ticket import is written in short transactions under
-- a job marked import_pending, which readers treat as not there, then published by clearing the
-- mark. Poles and units it creates carry the job's id, hidden until then and removed if it fails.
ALTER TABLE "units" ADD COLUMN "import_job_id" integer;--> statement-breakpoint
ALTER TABLE "poles" ADD COLUMN "import_job_id" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "import_pending" boolean DEFAULT false NOT NULL;