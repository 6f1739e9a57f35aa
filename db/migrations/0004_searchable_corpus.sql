ALTER TABLE "papers" ADD COLUMN "indexed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
DROP INDEX "papers_title_trgm_idx";--> statement-breakpoint
ALTER TABLE "papers" drop column "search";--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (case when "papers"."indexed" then setweight(to_tsvector('english', coalesce("papers"."title", '')), 'A')
      || setweight(to_tsvector('english', coalesce("papers"."abstract", '')), 'B')
      || setweight(to_tsvector('english', coalesce("papers"."search_notes", '')), 'C')
      || setweight(to_tsvector('simple', coalesce("papers"."search_zh", '')), 'B') end) STORED;--> statement-breakpoint
CREATE INDEX "papers_search_idx" ON "papers" USING gin ("search");--> statement-breakpoint
CREATE INDEX "papers_title_trgm_idx" ON "papers" USING gin ("title" gin_trgm_ops) WHERE indexed;
