import type { Db } from '../../../db/client.ts';
import { readableTexts } from '../../../db/queries/paper-texts.ts';
import type { Paper } from '../../../db/schema.ts';
import type { SummaryInput } from './prompt.ts';

/**
 * The papers as the summariser reads them: each with its newest readable full text (an older
 * version's until the current one is read), or none (the abstract alone). One query for all.
 */
export async function withFullText(db: Db, papers: readonly Paper[]): Promise<Map<number, SummaryInput>> {
  const texts = await readableTexts(
    db,
    papers.map((p) => p.id),
  );
  return new Map(papers.map((p) => [p.id, { ...p, fullText: texts.get(p.id)?.sections ?? null }]));
}

/** What a summary of this paper is based on, as stored in `summaries.basis`. */
export const basisOf = (p: SummaryInput): 'full-text' | 'abstract' => (p.fullText?.length ? 'full-text' : 'abstract');
