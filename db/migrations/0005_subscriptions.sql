ALTER TABLE "notifications_sent" ALTER COLUMN "sent_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "notifications_sent" ALTER COLUMN "sent_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications_sent" ADD COLUMN "bundled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications_sent" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications_sent" ADD COLUMN "nonce" text;--> statement-breakpoint
ALTER TABLE "notifications_sent" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications_sent" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "notifications_sent" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Hand-added: rows written before the outbox columns existed were already delivered (or failed).
UPDATE "notifications_sent" SET "status" = CASE WHEN "via" = 'failed' THEN 'failed' ELSE 'sent' END, "created_at" = coalesce("sent_at", now());--> statement-breakpoint
CREATE INDEX "notifications_sent_status_idx" ON "notifications_sent" USING btree ("status");