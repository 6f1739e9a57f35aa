ALTER TABLE "channels" ADD COLUMN "delivery_error" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "delivery_error_at" timestamp with time zone;