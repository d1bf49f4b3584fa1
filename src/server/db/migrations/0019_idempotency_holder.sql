-- The process applying a running Idempotency-Key claim (DESIGN §7.7 "retries after a crash",
-- db/process-lock.ts): a claim whose process no longer holds its advisory lock is free at once.
ALTER TABLE "idempotency_keys" ADD COLUMN "holder" bigint;
