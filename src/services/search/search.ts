/**
 * Search over the stored corpus: chat questions in English or Chinese, ranked by BM25F
 * (src/core/ranking). Each process keeps an index per database handle, built from Postgres on the first
 * search and brought up to date before every search by reading the papers whose search revision
 * moved (a trigger bumps it when a paper's text, families or summaries change): replicas agree
 * because they all read the same rows.
 */
import type { Db } from '../../../db/client.ts';
import {
  searchRowsAfter,
  summaryRowsInOrder,
  type SearchPage,
  type SearchSourceRow,
} from '../../../db/queries/search.ts';
import { SearchIndex } from '../../core/ranking/bm25.ts';
import { parseQuery, type ParsedQuery } from '../../core/ranking/query.ts';
import { correction } from '../../core/ranking/typo.ts';
import { changedAxesText, statedSettingsText } from '../../core/ranking/stated.ts';
import { FIELD_TERMS } from '../../core/ranking/vocabulary.ts';
import { cjkTerms, latinPart } from '../../core/papers/search-terms.ts';
import { readable } from '../../core/papers/latex.ts';
import { chineseDictionary } from './zh-dictionary.ts';

export type { SearchHit, SearchPage } from '../../../db/queries/search.ts';

export interface SearchOptions {
  limit: number;
  offset?: number;
  /** The last word may be unfinished (autocomplete): it also matches the index terms it begins. */
  prefix?: boolean;
}

interface LiveIndex {
  index: SearchIndex;
  rev: number;
  /** Misspelling corrections found, valid while the index is at `correctionsAt`. */
  corrections: Map<string, string | undefined>;
  correctionsAt: number;
  /** The refresh in flight: concurrent searches wait for one read instead of each starting their own. */
  refreshing?: Promise<void>;
}

const live = new WeakMap<Db, LiveIndex>();
const BATCH = 5000;

/** The handle's index, up to date with Postgres. */
export async function searchIndex(db: Db): Promise<SearchIndex> {
  let entry = live.get(db);
  if (!entry) live.set(db, (entry = { index: new SearchIndex(), rev: 0, corrections: new Map(), correctionsAt: 0 }));
  const e = entry;
  e.refreshing ??= (async () => {
    try {
      for (;;) {
        const rows = await searchRowsAfter(db, e.rev, BATCH);
        for (const [i, r] of rows.entries()) {
          if (r.indexed) e.index.add(toIndexed(r));
          else e.index.remove(r.id);
          e.rev = Math.max(e.rev, r.searchRev);
          // A first build over a large corpus takes seconds: let interactions be answered meanwhile.
          if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
        }
        if (rows.length < BATCH) break;
      }
    } finally {
      e.refreshing = undefined;
    }
  })();
  await e.refreshing;
  return e.index;
}

export async function searchPapers(db: Db, query: string, opts: SearchOptions): Promise<SearchPage> {
  const index = await searchIndex(db);
  const entry = live.get(db)!;
  if (entry.correctionsAt !== index.version) {
    entry.corrections.clear();
    entry.correctionsAt = index.version;
  }
  const { parsed, corrections } = withCorrections(
    parseQuery(query, /\p{Script=Han}/u.test(query) ? await chineseDictionary() : undefined),
    index,
    opts.prefix ?? false,
    entry.corrections,
  );
  const offset = opts.offset ?? 0;
  const { ranked, total } = index.search(withFeedback(parsed, index), offset + opts.limit);
  const page = ranked.slice(offset);
  const rows = await summaryRowsInOrder(
    db,
    page.map((r) => r.id),
  );
  const score = new Map(page.map((r) => [r.id, r.score]));
  return {
    hits: rows.map((row) => ({ ...row, score: Math.round(score.get(row.id)! * 1000) / 1000 })),
    hasMore: total > offset + opts.limit,
    corrections,
  };
}

/**
 * Query expansion (pseudo-relevance feedback) for questions of at least `minWords` typed words: the
 * 8 terms most shared by the 5 best papers, at `weight` x the share of them that have it. Measured on
 * the dev questions (docs/BENCHMARKS.md): from 7-8 words at 0.1-0.2 chat MRR@10 0.944 -> 0.951
 * (rambling 0.833 -> 0.917), how-to unchanged; from 6 words or at 0.3-0.5 it lost (0.918 at 0.5).
 */
export const FEEDBACK = { minWords: 8, docs: 5, terms: 8, weight: 0.15 };

/** A long question also searches the terms its best papers share, weighed by how many of them share each. */
function withFeedback(q: ParsedQuery, index: SearchIndex): ParsedQuery {
  const typed = q.terms.filter((t) => t.from === 'word' || t.from === 'family' || t.from === 'glossary').length;
  if (typed < FEEDBACK.minWords || FEEDBACK.weight === 0) return q;
  const extra = index.feedbackTerms(q, FEEDBACK.docs, FEEDBACK.terms);
  return {
    ...q,
    terms: [
      ...q.terms,
      ...extra.map((x) => ({ term: x.term, weight: FEEDBACK.weight * x.share, from: 'feedback' as const })),
    ],
  };
}

/**
 * Words no paper has are replaced by their likely spelling (weighed a little lower), and listed so
 * the reply can say so; a quoted word is taken as typed. With `prefix`, the last typed word also
 * stands for the most common index terms it begins (grou -> group).
 */
function withCorrections(
  q: ParsedQuery,
  index: SearchIndex,
  prefix: boolean,
  cache: Map<string, string | undefined>,
): { parsed: ParsedQuery; corrections: NonNullable<SearchPage['corrections']> } {
  const typed = q.terms.filter((t) => t.from === 'word' || t.from === 'family');
  const last = prefix ? typed.at(-1) : undefined;
  const completions = last
    ? index
        .vocabulary(last.term[0]!)
        .filter((v) => v.startsWith(last.term) && v !== last.term)
        .sort((a, b) => index.df(b) - index.df(a))
        .slice(0, 3)
    : [];
  const corrections: NonNullable<SearchPage['corrections']> = [];
  const terms = q.terms.map((t) => {
    if ((t.from !== 'word' && t.from !== 'family') || t.exact || FIELD_TERMS.has(t.term)) return t;
    if (index.df(t.term) > 0 || t === last) return t;
    if (!cache.has(t.term))
      cache.set(
        t.term,
        correction(t.term, index.vocabulary(t.term[0]!), (x) => index.df(x)),
      );
    const fixed = cache.get(t.term);
    if (!fixed) return t;
    corrections.push({ typed: t.word ?? t.term, shown: index.surface(fixed) });
    return { ...t, term: fixed, weight: t.weight * 0.8 };
  });
  return {
    parsed: { ...q, terms: [...terms, ...completions.map((term) => ({ term, weight: 0.7, from: 'word' as const }))] },
    corrections,
  };
}

/**
 * What a stored paper contributes to the index: its title and abstract as every view shows them
 * (`readable`: a citation's key or a LaTeX command is not a word of the paper, so a hit is always
 * explained by the text the reader sees), its summaries' English text (without the GRPO-delta
 * keywords: "unchanged" on every axis says nothing) and what it states about its training (the axes
 * its summaries mark changed, the settings read from its full text) to the body; their Chinese to
 * the Chinese terms.
 */
function toIndexed(r: SearchSourceRow) {
  const summaryText = r.summaries
    .map((c) => {
      const { grpo_delta: delta, ...rest } = (c ?? {}) as Record<string, unknown>;
      return `${JSON.stringify(rest, (_k, v: unknown) => (typeof v === 'string' ? readable(v) : v))} ${changedAxesText(delta)}`;
    })
    .join(' ');
  const summaryLatin = latinPart(summaryText.replace(/"[a-z_]+":/g, ' '));
  return {
    id: r.id,
    title: readable(r.title),
    abstract: readable(r.abstract),
    body: `${r.searchNotes} ${summaryLatin} ${statedSettingsText(r.textSettings ?? [])}`,
    zh: `${r.searchZh} ${cjkTerms(summaryText).join(' ')}`,
    families: r.families,
    day: r.publishedOn ? Math.floor(Date.parse(r.publishedOn) / 86_400_000) : 0,
  };
}
