-- Search ranks in the app (src/search): the generated tsvector and its GIN index are no longer read.
DROP INDEX "papers_search_idx";--> statement-breakpoint
ALTER TABLE "papers" DROP COLUMN "search";--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "papers_search_rev_seq";--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "search_rev" bigint DEFAULT nextval('papers_search_rev_seq') NOT NULL;--> statement-breakpoint
CREATE INDEX "papers_search_rev_idx" ON "papers" USING btree ("search_rev");--> statement-breakpoint
-- A paper's search revision moves whenever what search reads of it changes, so every replica's
-- index reloads exactly the rows past the highest revision it has seen.
CREATE FUNCTION papers_bump_search_rev() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_rev := nextval('papers_search_rev_seq');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER papers_search_rev BEFORE UPDATE ON "papers" FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.abstract IS DISTINCT FROM NEW.abstract
    OR OLD.title_zh IS DISTINCT FROM NEW.title_zh OR OLD.search_notes IS DISTINCT FROM NEW.search_notes
    OR OLD.search_zh IS DISTINCT FROM NEW.search_zh OR OLD.families IS DISTINCT FROM NEW.families
    OR OLD.topics IS DISTINCT FROM NEW.topics OR OLD.indexed IS DISTINCT FROM NEW.indexed
    OR OLD.arxiv_id IS DISTINCT FROM NEW.arxiv_id OR OLD.published_on IS DISTINCT FROM NEW.published_on)
  EXECUTE FUNCTION papers_bump_search_rev();--> statement-breakpoint
-- A summary is searched text too: writing one moves its paper's revision.
CREATE FUNCTION summaries_bump_search_rev() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE papers SET search_rev = nextval('papers_search_rev_seq') WHERE id = NEW.paper_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER summaries_search_rev AFTER INSERT OR UPDATE ON "summaries" FOR EACH ROW EXECUTE FUNCTION summaries_bump_search_rev();
