ALTER TABLE "history" ADD COLUMN "api_token_id" integer;--> statement-breakpoint
ALTER TABLE "history" ADD COLUMN "api_token_name" text;