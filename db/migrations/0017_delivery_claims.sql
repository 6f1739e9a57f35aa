ALTER TABLE "deliveries" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "claimed_at" timestamp with time zone;