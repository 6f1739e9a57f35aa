/**
 * The last step of every parser: a candidate is made storable or skipped, here and nowhere else
 * (zod at the boundary). A feed is untrusted input, and one value Postgres refuses would fail the
 * whole feed's insert, so nothing leaves this module that a column cannot hold:
 * - text without NUL, other control characters, lone surrogates, bidi overrides or zero-width
 *   characters (`stripUnsafeChars`), and capped (an abstract over 1 MB breaks the search vector);
 * - counters (upvotes, stars, comments) rounded and clamped to a Postgres integer;
 * - links only when http(s); dates only when real;
 * - an arXiv version outside 1..1000 skips the item (it names a version that cannot exist);
 * - the raw item (provenance, jsonb) cleaned the same way, with its strings and arrays capped.
 */
import { z } from 'zod';
import { ARXIV_CATEGORY } from '../../core/config.ts';
import { stripUnsafeChars } from '../../core/reply.ts';
import { collapseWhitespace, type PaperCandidate, type SkippedItem } from '../../core/papers/candidate.ts';

export const CAPS = {
  title: 1_000,
  /** Real abstracts stay under 2,000 characters; Hugging Face summaries too. */
  abstract: 20_000,
  author: 300,
  authors: 2_000,
  field: 2_000,
  aiSummary: 5_000,
  keyword: 100,
  keywords: 50,
  categories: 50,
  url: 2_000,
  rawString: 10_000,
  rawEntries: 1_000,
  rawDepth: 8,
} as const;

const INT4_MAX = 2_147_483_647;
const MAX_VERSION = 1_000;

const cap = (s: string, max: number) =>
  s.length <= max ? s : s.slice(0, /[\uD800-\uDBFF]/.test(s[max - 1] ?? '') ? max - 1 : max);
const clean = (s: string, max: number) => cap(collapseWhitespace(stripUnsafeChars(s)), max);

const text = (max: number) => z.string().transform((s) => clean(s, max));
/** Optional text: dropped when empty or not a string. */
const optText = (max: number) =>
  text(max)
    .optional()
    .catch(undefined)
    .transform((s) => s || undefined);
/** A counter: rounded, negative -> 0, beyond a Postgres integer -> its maximum; not a finite number -> dropped. */
const counter = z
  .number()
  .refine(Number.isFinite)
  .transform((n) => Math.min(INT4_MAX, Math.max(0, Math.round(n))))
  .optional()
  .catch(undefined);
const httpUrl = z
  .string()
  .transform((s) => stripUnsafeChars(s).trim())
  .pipe(z.url({ protocol: /^https?$/ }).max(CAPS.url))
  .optional()
  .catch(undefined);
const list = (itemMax: number, count: number) =>
  z.array(z.unknown()).transform((xs) =>
    xs
      .flatMap((x) => {
        const c = typeof x === 'string' ? clean(x, itemMax) : '';
        return c ? [c] : [];
      })
      .slice(0, count),
  );
/** YYYY-MM-DD of a day that exists, from arXiv's first year on. */
const day = z
  .string()
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && s >= '1991-01-01' && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
  )
  .optional()
  .catch(undefined);

const Candidate = z.object({
  source: z.enum(['arxiv-rss', 'arxiv-api', 'hf-daily']),
  externalId: text(100).pipe(z.string().min(1, 'no external id')),
  arxivId: z.string().min(1).max(40),
  version: z.number().int().min(1).max(MAX_VERSION, `version is over ${MAX_VERSION}`).optional(),
  title: text(CAPS.title).pipe(z.string().min(1, 'empty title')),
  abstract: text(CAPS.abstract),
  authors: list(CAPS.author, CAPS.authors),
  categories: z
    .array(z.string())
    .transform((cs) =>
      [...new Set(cs.map((c) => c.trim()).filter((c) => ARXIV_CATEGORY.test(c)))].slice(0, CAPS.categories),
    ),
  announceType: z.enum(['new', 'cross', 'replace', 'replace-cross']).optional(),
  publishedOn: day,
  doi: optText(300),
  journalRef: optText(CAPS.field),
  comment: optText(CAPS.field),
  hf: z
    .object({
      upvotes: counter,
      numComments: counter,
      githubUrl: httpUrl,
      githubStars: counter,
      projectPage: httpUrl,
      organization: optText(CAPS.author),
      aiSummary: optText(CAPS.aiSummary),
      aiKeywords: list(CAPS.keyword, CAPS.keywords).optional().catch(undefined),
      dailyDate: day,
    })
    .optional(),
  raw: z.unknown().transform((v) => cleanRaw(v, 0)),
});

/** The candidate made storable, or the reason it is skipped. */
export function admitCandidate(c: PaperCandidate): PaperCandidate | SkippedItem {
  const parsed = Candidate.safeParse(c);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return {
    reason: `invalid ${issue?.path.join('.') || 'item'}: ${issue?.message ?? 'unknown'}`,
    externalId: clean(c.externalId, 100) || undefined,
  };
}

/**
 * Sorts a page's parse results into candidates (each admitted) and skipped items. At most `maxItems`
 * are read: the rest are skipped as one entry that counts them, so a hostile page of a million items
 * costs no more than a full one.
 */
export function admitAll<T>(
  items: readonly T[],
  toCandidate: (item: T, index: number) => PaperCandidate | SkippedItem,
  maxItems: number,
): { candidates: PaperCandidate[]; skipped: SkippedItem[] } {
  const candidates: PaperCandidate[] = [];
  const skipped: SkippedItem[] = [];
  const n = Math.min(items.length, maxItems);
  for (let i = 0; i < n; i++) {
    const first = toCandidate(items[i]!, i);
    const result = 'reason' in first ? first : admitCandidate(first);
    if ('reason' in result)
      skipped.push({
        reason: clean(result.reason, 300),
        externalId: result.externalId && (clean(result.externalId, 100) || undefined),
      });
    else candidates.push(result);
  }
  if (items.length > n)
    skipped.push({ reason: `${items.length - n} items over the ${maxItems}-item page limit`, count: items.length - n });
  return { candidates, skipped };
}

/** How many feed items a list of skipped entries stands for. */
export function skippedCount(skipped: readonly SkippedItem[]): number {
  return skipped.reduce((n, s) => n + (s.count ?? 1), 0);
}

/** One log line's worth of skipped items: how many, and the first few with their reasons. */
export function skippedSummary(
  skipped: readonly SkippedItem[],
  examples = 5,
): { skipped: number; examples: SkippedItem[] } {
  return { skipped: skippedCount(skipped), examples: skipped.slice(0, examples) };
}

/** A raw item as jsonb can hold it: clean strings and keys, finite numbers, bounded depth and size. */
function cleanRaw(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return cap(stripUnsafeChars(v), CAPS.rawString);
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === null || v === undefined || typeof v === 'boolean') return v;
  if (typeof v !== 'object' || depth >= CAPS.rawDepth) return null;
  if (Array.isArray(v)) return v.slice(0, CAPS.rawEntries).map((x) => cleanRaw(x, depth + 1));
  return Object.fromEntries(
    Object.entries(v)
      .slice(0, CAPS.rawEntries)
      .map(([k, x]) => [cap(stripUnsafeChars(k), 200), cleanRaw(x, depth + 1)]),
  );
}
