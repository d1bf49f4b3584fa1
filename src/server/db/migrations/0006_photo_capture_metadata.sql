ALTER TABLE "images" ADD COLUMN "taken_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "geo_lat" double precision;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "geo_lon" double precision;