-- Indexes for ten years' data (decision 054, docs/product/scale.md §3): My Work reads a foreman's
-- jobs from jobs_foreman_idx alone (its columns are what it needs), its "needs photos" the
-- Complete, unbilled tickets by job; the paged jobs list counts the published jobs from a small
-- partial index (decision 053).
DROP INDEX "jobs_foreman_idx";--> statement-breakpoint
CREATE INDEX "jobs_published_idx" ON "jobs" USING btree ("company_id") WHERE not "jobs"."import_pending";--> statement-breakpoint
CREATE INDEX "tickets_unbilled_job_idx" ON "tickets" USING btree ("company_id","job_id") WHERE "tickets"."actual_completion_date" is not null and "tickets"."billed_at" is null;--> statement-breakpoint
CREATE INDEX "jobs_foreman_idx" ON "jobs" USING btree ("foreman_id","company_id","import_pending","id","job_number");