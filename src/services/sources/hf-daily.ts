/**
 * Hugging Face Daily Papers (`GET /api/daily_papers?date=`) -> PaperCandidate with HF extras.
 * Pure: the HTTP layer fetches and hands the body here. Format facts: docs/feed-formats.md §3.
 *
 * The payload has no published schema that matches reality (optional keys come and go, fields fill
 * in hours later), so only `paper.id` and `paper.title` are required; any other field of the wrong
 * type is dropped rather than failing its item, and one bad item never fails the page.
 */

import { describeBody } from './body.ts';
import { z } from 'zod';
import { parseArxivId } from '../../core/papers/identity.ts';
import {
  collapseWhitespace,
  FeedError,
  type HfExtras,
  type PaperCandidate,
  type ParsedFeed,
  type SkippedItem,
} from '../../core/papers/candidate.ts';
import { admitAll } from './sanitize.ts';

/** Pages ask for 100 items; more is not a page of daily papers. */
const MAX_ITEMS = 1_000;

/** An optional field that degrades to undefined when present with the wrong type (or null). */
const opt = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const Organization = z.looseObject({ name: opt(z.string()), fullname: opt(z.string()) });

const Paper = z.looseObject({
  id: z.string(),
  title: z.string(),
  summary: opt(z.string()),
  publishedAt: opt(z.string()),
  authors: opt(z.array(z.unknown())),
  upvotes: opt(z.number()),
  githubRepo: opt(z.string()),
  githubStars: opt(z.number()),
  projectPage: opt(z.string()),
  organization: opt(Organization),
  ai_summary: opt(z.string()),
  ai_keywords: opt(z.array(z.string())),
});

const DailyItem = z.looseObject({
  paper: Paper,
  summary: opt(z.string()),
  numComments: opt(z.number()),
  organization: opt(Organization),
});

const AuthorName = z.looseObject({ name: z.string() });

/**
 * Parses one page of daily papers listed under `dailyDate` (YYYY-MM-DD, the `date` queried).
 * `meta.count` is the number of items on the page, good or bad: the paging loop compares it with
 * the page size. At most `maxItems` are read (the page size asked for); the rest is skipped as one
 * counted entry. Throws FeedError when the body is not JSON or not an array.
 */
export function parseHfDaily(json: string, dailyDate: string, maxItems = MAX_ITEMS): ParsedFeed<{ count: number }> {
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    throw new FeedError(`HF daily papers: body is not JSON (${describeBody(json)})`);
  }
  if (!Array.isArray(body)) {
    const error = body && typeof body === 'object' && 'error' in body ? `: ${String(body.error)}` : '';
    throw new FeedError(`HF daily papers: expected an array, got ${body === null ? 'null' : typeof body}${error}`);
  }

  const admitted = admitAll(
    body as unknown[],
    (raw, index) => {
      const result = toCandidate(raw, dailyDate);
      return 'reason' in result ? { ...result, reason: `item ${index}: ${result.reason}` } : result;
    },
    Math.min(maxItems, MAX_ITEMS),
  );
  return { ...admitted, meta: { count: body.length } };
}

function toCandidate(raw: unknown, dailyDate: string): PaperCandidate | SkippedItem {
  const parsed = DailyItem.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      reason: `invalid item (${issue ? `${issue.path.join('.') || 'item'}: ${issue.message}` : 'unknown'})`,
      externalId: looseId(raw),
    };
  }
  const item = parsed.data;
  const paper = item.paper;
  const ids = parseArxivId(paper.id);
  if (!ids) return { reason: `paper id "${paper.id}" is not an arXiv id`, externalId: paper.id };
  const title = collapseWhitespace(paper.title);
  if (!title) return { reason: 'paper has an empty title', externalId: ids.id };

  const hf: HfExtras = definedOnly({
    upvotes: paper.upvotes,
    numComments: item.numComments,
    githubUrl: paper.githubRepo,
    githubStars: paper.githubStars,
    projectPage: paper.projectPage,
    organization: orgName(paper.organization) ?? orgName(item.organization),
    aiSummary: paper.ai_summary,
    aiKeywords: paper.ai_keywords,
    dailyDate,
  });
  return {
    source: 'hf-daily',
    externalId: ids.id,
    arxivId: ids.id,
    title,
    abstract: collapseWhitespace(paper.summary ?? item.summary ?? ''),
    // Hidden authors are kept: `hidden` hides the HF account link, not the author.
    authors: (paper.authors ?? []).flatMap((a) => {
      const name = AuthorName.safeParse(a);
      const clean = name.success ? collapseWhitespace(name.data.name) : '';
      return clean ? [clean] : [];
    }),
    categories: [],
    publishedOn: utcDate(paper.publishedAt),
    hf,
    raw,
  };
}

/** `<base>/daily_papers?date=YYYY-MM-DD&p=<0-based page>&limit=<1..100>`. */
export function hfDailyUrl(base: string, date: string, page: number, limit = 100): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`hfDailyUrl: date must be YYYY-MM-DD, got "${date}"`);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new RangeError(`hfDailyUrl: limit must be 1..100, got ${limit}`);
  if (!Number.isInteger(page) || page < 0)
    throw new RangeError(`hfDailyUrl: page must be a non-negative integer, got ${page}`);
  const url = new URL(`${base.replace(/\/+$/, '')}/daily_papers`);
  url.search = new URLSearchParams({ date, p: String(page), limit: String(limit) }).toString();
  return url.toString();
}

/** Whether a `Link` header announces a next page (`<...&p=1>; rel="next"`). rel may list several types. */
export function nextPageFromLink(linkHeader: string | null | undefined): boolean {
  if (!linkHeader) return false;
  for (const m of linkHeader.matchAll(/<[^>]*>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[1] ?? '');
    const types = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (types.includes('next')) return true;
  }
  return false;
}

function utcDate(iso: string | undefined): string | undefined {
  const d = iso ? new Date(iso) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString().slice(0, 10) : undefined;
}

function orgName(org: z.infer<typeof Organization> | undefined): string | undefined {
  return org?.fullname?.trim() || org?.name?.trim() || undefined;
}

function looseId(raw: unknown): string | undefined {
  const paper = raw && typeof raw === 'object' && 'paper' in raw ? raw.paper : undefined;
  const id = paper && typeof paper === 'object' && 'id' in paper ? paper.id : undefined;
  return typeof id === 'string' ? id : undefined;
}

function definedOnly<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
