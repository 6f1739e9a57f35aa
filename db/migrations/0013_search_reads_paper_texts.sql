-- Search indexes what a paper's full text states (the rules extractor's settings in paper_texts):
-- storing or replacing a text moves its paper's search revision, as a summary does.
CREATE FUNCTION paper_texts_bump_search_rev() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE papers SET search_rev = nextval('papers_search_rev_seq') WHERE id = NEW.paper_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER paper_texts_search_rev AFTER INSERT OR UPDATE OF status, rules_settings ON "paper_texts"
  FOR EACH ROW EXECUTE FUNCTION paper_texts_bump_search_rev();
