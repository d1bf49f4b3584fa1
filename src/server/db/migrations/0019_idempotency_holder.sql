-- The process applying a running Idempotency-Key claim (docs/product/sessions-and-safety.md §11 "retries after a crash",
-- db/process-lock.ts): a claim whose process no longer holds its advisory lock is free at once.
ALTER TABLE "idempotency_keys" ADD COLUMN "holder" bigint;
