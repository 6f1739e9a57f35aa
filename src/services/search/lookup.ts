import type { Db } from '../../../db/client.ts';
import { findPaperByTitle, getPaperByArxivId } from '../../../db/queries/papers.ts';
import type { Paper } from '../../../db/schema.ts';
import { findFamily } from '../../core/papers/families.ts';
import { parseArxivId, titleKey } from '../../core/papers/identity.ts';

export type PaperLookup =
  | { paper: Paper }
  | { paper: undefined; reason: 'malformed-id' | 'unknown-id' | 'no-title-match'; id?: string }
  /** A family's name whose defining paper is not stored. */
  | { paper: undefined; reason: 'family-not-stored'; id: string; family: string };

/**
 * Resolves what a user typed to identify a paper: an arXiv id (any version), an arXiv or Hugging Face
 * URL, a title, or a family's name for its defining paper (`GSPO`, as people name papers in chat;
 * before titles, which would match "DAPO" to any paper with DAPO in its title). Says why nothing was
 * found, so the reply can tell the user what to do.
 */
export async function lookupPaper(db: Db, ref: string): Promise<PaperLookup> {
  const input = ref.trim();
  const family = findFamily(input);
  if (family?.defining.arxivId) {
    const paper = await getPaperByArxivId(db, family.defining.arxivId);
    return paper
      ? { paper }
      : { paper: undefined, reason: 'family-not-stored', id: family.defining.arxivId, family: family.name };
  }
  const parsed = parseArxivId(input);
  if (parsed) {
    const paper = await getPaperByArxivId(db, parsed.id);
    return paper ? { paper } : { paper: undefined, reason: 'unknown-id', id: parsed.id };
  }
  if (looksLikeId(input)) return { paper: undefined, reason: 'malformed-id' };
  const paper = await findPaperByTitle(db, input, titleKey(input));
  return paper ? { paper } : { paper: undefined, reason: 'no-title-match' };
}

/** Something shaped like an id or a paper link rather than a title (digits-and-dots, an arxiv/hf URL). */
function looksLikeId(s: string): boolean {
  return (
    /^(arxiv:)?\d{3,}[.\d]*(v\d+)?$/i.test(s) || /^https?:\/\//i.test(s) || /(arxiv\.org|huggingface\.co)\//i.test(s)
  );
}
