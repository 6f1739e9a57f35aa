import type { Db } from '../../../db/client.ts';
import type { Note, Paper } from '../../../db/schema.ts';
import { papersInOrder } from '../../../db/queries/papers.ts';
import { summarySources } from '../../../db/queries/summaries.ts';
import type { Summary } from '../../../db/schema.ts';
import type { DigestSummary } from '../../core/digest/types.ts';
import { extractiveSummary } from './fallback.ts';
import { neutralizeMentions, truncate } from '../../core/reply.ts';
import { PROMPT_VERSION, summaryContent, type GrpoDelta, type Lang } from './schema.ts';
import { tellingLine } from '../../core/papers/settings.ts';
import { trainingOf } from './settings.ts';
import { repairNotice } from '../../core/views/paper-card.ts';

/**
 * The summary a digest or card shows for one paper in one language, in one shape whatever its
 * source. Every text field is already mention-safe.
 */
export interface ShownSummary {
  /** `llm`: generated and validated; `note`: the seed's human-written Chinese note; `fallback`: extractive. */
  source: 'llm' | 'note' | 'fallback';
  /** Shown above the text whenever it is not LLM-written; null for LLM summaries. */
  label: string | null;
  tldr: string;
  motivation: string | null;
  method: string[];
  results: string | null;
  takeaways: string | null;
  grpoDelta: GrpoDelta | null;
  /** Fallback only: the abstract's first sentences when `tldr` is Hugging Face's AI summary. */
  excerpt: string | null;
  /** The model that wrote it (LLM summaries only). */
  model: string | null;
}

const NOTE_LABEL = '人工笔记（种子语料，已修复编码）';

/** The note's label; a repair with close calls or unrestorable characters says so rather than "repaired". */
export function noteLabel(note: Pick<Note, 'unresolvedChars' | 'uncertainChars'>): string {
  const doubt = repairNotice(note);
  return doubt === '' ? NOTE_LABEL : `人工笔记（种子语料，编码修复：${doubt}）`;
}

/** The paper fields the choice needs. */
export type ShowablePaper = Pick<Paper, 'id' | 'abstract' | 'abstractZh' | 'aiSummary'>;

/**
 * Pure choice: the generated `ok` summary, else (Chinese only) the seed note, else the extractive
 * fallback. A stored summary whose content no longer parses is skipped rather than shown.
 */
export function chooseSummary(
  paper: ShowablePaper,
  lang: Lang,
  summary: Summary | undefined,
  note: Note | undefined,
): ShownSummary {
  const parsed = summary?.status === 'ok' ? summaryContent.safeParse(summary.content) : undefined;
  if (parsed?.success) {
    const c = parsed.data;
    return {
      source: 'llm',
      label: null,
      tldr: c.tldr,
      motivation: c.motivation,
      method: c.method,
      results: c.results,
      takeaways: c.takeaways,
      grpoDelta: c.grpo_delta,
      excerpt: null,
      model: summary!.model,
    };
  }
  if (lang === 'zh' && note) {
    const safe = (s: string) => (s.trim() ? neutralizeMentions(s.trim()) : null);
    return {
      source: 'note',
      label: noteLabel(note),
      tldr: safe(note.heading) ?? truncate(neutralizeMentions(note.body.trim()), 300),
      motivation: safe(note.motivation),
      method: note.method.map(neutralizeMentions),
      results: safe(note.results),
      takeaways: safe(note.takeaways),
      grpoDelta: null,
      excerpt: null,
      model: null,
    };
  }
  const f = extractiveSummary(paper, lang);
  return {
    source: 'fallback',
    label: f.label,
    tldr: f.tldr,
    motivation: null,
    method: [],
    results: null,
    takeaways: null,
    grpoDelta: null,
    excerpt: f.excerpt,
    model: null,
  };
}

/**
 * "The summary to show" for several papers in one language, keyed by paper id (one query each for
 * summaries and notes, however many papers). The digest composer's entry point.
 */
export async function summariesToShow(
  db: Db,
  papers: readonly ShowablePaper[],
  lang: Lang,
  promptVersion = PROMPT_VERSION,
): Promise<Map<number, ShownSummary>> {
  const src = await summarySources(
    db,
    papers.map((p) => p.id),
    lang,
    promptVersion,
  );
  const summaryBy = new Map<number, Summary>();
  for (const s of src.summaries) if (!summaryBy.has(s.paperId)) summaryBy.set(s.paperId, s); // best first
  const noteBy = new Map<number, Note>();
  for (const n of src.notes) if (!noteBy.has(n.paperId)) noteBy.set(n.paperId, n);
  return new Map(papers.map((p) => [p.id, chooseSummary(p, lang, summaryBy.get(p.id), noteBy.get(p.id))]));
}

/** The same for one paper. */
export async function summaryToShow(
  db: Db,
  paper: ShowablePaper,
  lang: Lang,
  promptVersion = PROMPT_VERSION,
): Promise<ShownSummary> {
  return (await summariesToShow(db, [paper], lang, promptVersion)).get(paper.id)!;
}

/**
 * The digest composer's view of `summariesToShow`, for the papers a digest shows (the `SummaryLoader`
 * of db/queries/digest.ts). Labels are left to the composer, which has short ones per kind and language.
 */
export async function digestSummaries(db: Db, paperIds: number[], lang: Lang): Promise<Map<number, DigestSummary>> {
  const [shown, training] = await Promise.all([
    summariesToShow(db, await papersInOrder(db, paperIds), lang),
    trainingOf(db, paperIds),
  ]);
  return new Map(
    [...shown].map(([id, s]) => {
      const settings = tellingLine(training.get(id)?.settings?.items ?? []);
      return [
        id,
        {
          kind: s.source,
          tldr: s.tldr,
          ...(s.grpoDelta && { grpoDelta: { ...s.grpoDelta } as Record<string, string> }),
          ...(settings && { settings }),
        },
      ];
    }),
  );
}
