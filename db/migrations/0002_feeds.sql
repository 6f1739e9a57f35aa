ALTER TABLE "feed_state" ADD COLUMN "batch_key" text;--> statement-breakpoint
ALTER TABLE "feed_state" ADD COLUMN "batch_date" text;--> statement-breakpoint
ALTER TABLE "feed_state" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "feed_state" ADD COLUMN "health" text;--> statement-breakpoint
ALTER TABLE "feed_state" ADD COLUMN "health_detail" text;--> statement-breakpoint
ALTER TABLE "feed_state" ADD COLUMN "last_new_count" integer;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "news_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "papers_news_idx" ON "papers" USING btree ("news_at");