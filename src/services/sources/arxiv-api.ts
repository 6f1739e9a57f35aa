/**
 * arXiv API (export.arxiv.org/api/query, Atom) -> PaperCandidate, plus the query and URL builders.
 * Pure: the HTTP layer fetches and hands the body here. Format facts: docs/feed-formats.md §2 and §4.
 *
 * Every field is read from rss-parser's raw custom fields, by element name, never from its Atom
 * defaults: the Nov-2025 serializer swap reordered elements and the old one puts an `xmlns`
 * attribute on every element, which turns plain strings into `{ _, $ }` objects.
 */

import { describeBody, firstLine, repairXml } from './body.ts';
import Parser from 'rss-parser';
import { ARXIV_CATEGORY } from '../../core/config.ts';
import { parseArxivId } from '../../core/papers/identity.ts';
import { cleanAuthorName } from './authors.ts';
import {
  collapseWhitespace,
  FeedError,
  type PaperCandidate,
  type ParsedFeed,
  type SkippedItem,
} from '../../core/papers/candidate.ts';
import { admitAll } from './sanitize.ts';

export interface ApiMeta {
  totalResults?: number;
  startIndex?: number;
  itemsPerPage?: number;
}

interface ApiFeedFields {
  'opensearch:totalResults'?: unknown;
  'opensearch:startIndex'?: unknown;
  'opensearch:itemsPerPage'?: unknown;
}

interface ApiEntry {
  idRaw?: unknown;
  titleRaw?: unknown;
  summaryRaw?: unknown;
  authors?: { name?: unknown[] }[];
  categoriesRaw?: { $?: { term?: string } }[];
  links?: { $?: { href?: string; rel?: string; title?: string } }[];
  'arxiv:primary_category'?: { $?: { term?: string } };
  'arxiv:comment'?: unknown;
  'arxiv:journal_ref'?: unknown;
  'arxiv:doi'?: unknown;
  published?: unknown;
  updated?: unknown;
}

/** Pages ask for at most 500 entries; more is not an answer to our query. */
const MAX_ENTRIES = 2_000;

/** A parser per document: one that failed can answer the next document wrongly. */
const newParser = () =>
  new Parser<ApiFeedFields, ApiEntry>({
    customFields: {
      feed: ['opensearch:totalResults', 'opensearch:startIndex', 'opensearch:itemsPerPage'],
      item: [
        ['id', 'idRaw'],
        ['title', 'titleRaw'],
        ['summary', 'summaryRaw'],
        ['author', 'authors', { keepArray: true }],
        ['category', 'categoriesRaw', { keepArray: true }],
        ['link', 'links', { keepArray: true }],
        'arxiv:primary_category',
        'arxiv:comment',
        'arxiv:journal_ref',
        'arxiv:doi',
        'published',
        'updated',
      ],
    },
  });

/**
 * Parses one API response page, reading at most `maxEntries` entries (the page size asked for: more is
 * not an answer, and the rest is skipped as one counted entry). Throws FeedError for a blank or non-Atom body and for arXiv's
 * error feed (a single entry whose id is `.../api/errors#...`), which otherwise looks like a paper.
 */
export async function parseArxivApi(xml: string, maxEntries = MAX_ENTRIES): Promise<ParsedFeed<ApiMeta>> {
  // Blank 200 bodies are a known failure mode of the post-2025 backend, not "no results".
  if (xml.trim() === '') throw new FeedError('arXiv API: empty response body');
  if (!/^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<feed[\s>]/.test(xml)) {
    throw new FeedError(`arXiv API: not an Atom feed (${describeBody(xml)})`);
  }
  let feed: Feed;
  let broken: SkippedItem[] = [];
  try {
    feed = await newParser().parseString(repairXml(xml));
  } catch (err) {
    // One entry's broken markup costs that entry: a complete page is read again entry by entry.
    const salvaged = await entryByEntry(repairXml(xml));
    if (!salvaged) throw new FeedError(`arXiv API: unreadable feed (${firstLine(err)})`, { cause: err });
    ({ feed, broken } = salvaged);
  }

  const error = feed.items.find((e) => text(e.idRaw)?.includes('/api/errors'));
  if (error)
    throw new FeedError(
      `arXiv API error: ${collapseWhitespace(text(error.summaryRaw) ?? text(error.titleRaw) ?? 'unknown')}`,
    );

  const meta: ApiMeta = {
    totalResults: int(feed['opensearch:totalResults']),
    startIndex: int(feed['opensearch:startIndex']),
    itemsPerPage: int(feed['opensearch:itemsPerPage']),
  };
  const admitted = admitAll(feed.items, toCandidate, Math.min(maxEntries, MAX_ENTRIES));
  return { candidates: admitted.candidates, skipped: [...admitted.skipped, ...broken], meta };
}

type Feed = Awaited<ReturnType<ReturnType<typeof newParser>['parseString']>>;

const ENTRY = /<entry[\s>][\s\S]*?<\/entry>/g;

/**
 * A complete page (it ends with `</feed>`) the parser refuses, read one entry at a time in its own small
 * document: the entries that parse, and each refused one skipped with its id. Undefined for a page cut
 * short (its missing entries would be lost behind the cursor) or whose header is unreadable.
 */
async function entryByEntry(xml: string): Promise<{ feed: Feed; broken: SkippedItem[] } | undefined> {
  const first = xml.search(/<entry[\s>]/);
  if (first < 0 || !/<\/feed>\s*$/.test(xml)) return undefined;
  const head = xml.slice(0, first);
  let feed: Feed;
  try {
    feed = await newParser().parseString(`${head}</feed>`);
  } catch {
    return undefined;
  }
  const broken: SkippedItem[] = [];
  for (const [entry] of xml.slice(first).matchAll(ENTRY)) {
    try {
      feed.items.push(...(await newParser().parseString(`${head}${entry}</feed>`)).items);
    } catch (err) {
      broken.push({
        reason: `unreadable entry (${firstLine(err)})`,
        externalId: /<id>\s*([^<\s]{1,100})/.exec(entry)?.[1],
      });
    }
  }
  return { feed, broken };
}

function toCandidate(entry: ApiEntry): PaperCandidate | SkippedItem {
  const rawId = text(entry.idRaw);
  const ids = rawId ? parseArxivId(rawId) : null;
  if (!ids) return { reason: 'entry id is not an arXiv abs URL', externalId: rawId };
  const externalId = ids.version === undefined ? ids.id : `${ids.id}v${ids.version}`;
  const title = collapseWhitespace(text(entry.titleRaw) ?? '');
  if (!title) return { reason: 'entry has no title', externalId };

  const candidate: PaperCandidate = {
    source: 'arxiv-api',
    externalId,
    arxivId: ids.id,
    version: ids.version,
    title,
    abstract: collapseWhitespace(text(entry.summaryRaw) ?? ''),
    authors: (entry.authors ?? []).map((a) => cleanAuthorName(text(a.name?.[0]) ?? '')).filter((n) => n.length > 0),
    categories: categoriesOf(entry),
    publishedOn: utcDate(text(entry.published)),
    raw: entry,
  };
  const doi = text(entry['arxiv:doi']) ?? doiFromLinks(entry);
  const journalRef = text(entry['arxiv:journal_ref']);
  const comment = text(entry['arxiv:comment']);
  if (doi) candidate.doi = doi;
  if (journalRef) candidate.journalRef = collapseWhitespace(journalRef);
  if (comment) candidate.comment = collapseWhitespace(comment);
  return candidate;
}

/** Primary first (it may differ from the category queried, for cross-lists), then the rest in feed order. */
function categoriesOf(entry: ApiEntry): string[] {
  const primary = entry['arxiv:primary_category']?.$?.term?.trim();
  const all = (entry.categoriesRaw ?? []).map((c) => c.$?.term?.trim() ?? '');
  return [...new Set([primary ?? '', ...all])].filter((c) => ARXIV_CATEGORY.test(c));
}

function doiFromLinks(entry: ApiEntry): string | undefined {
  const href = entry.links?.find((l) => l.$?.title === 'doi')?.$?.href;
  return href?.replace(/^https?:\/\/(?:dx\.)?doi\.org\//i, '') || undefined;
}

function utcDate(iso: string | undefined): string | undefined {
  const d = iso ? new Date(iso) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString().slice(0, 10) : undefined;
}

function int(v: unknown): number | undefined {
  const s = text(v);
  const n = s === undefined ? NaN : Number(s);
  return Number.isInteger(n) ? n : undefined;
}

/** xml2js gives strings, or `{ _: text, $: attrs }` when the element has attributes (old serializer). */
function text(v: unknown): string | undefined {
  const s =
    typeof v === 'string' ? v : v && typeof v === 'object' && '_' in v && typeof v._ === 'string' ? v._ : undefined;
  const trimmed = s?.trim();
  return trimmed ? trimmed : undefined;
}

// ---------------------------------------------------------------------------------------------
// Query and URL builders

export interface FamilyQueryOptions {
  categories?: string[];
  /** Submission window, inclusive, to the minute (arXiv reads it as GMT). */
  from?: Date;
  to?: Date;
}

/**
 * The family search: every term in title or abstract, within the categories and submission window.
 * arXiv ORs bare terms and would split unquoted phrases into OR-ed words, so the query spells out
 * every operator and quotes anything that is not a single plain word (`"R1-Zero"`, `"REINFORCE++"`).
 */
export function familyQuery(terms: readonly string[], opts: FamilyQueryOptions = {}): string {
  const phrases = [...new Set(terms.map(queryPhrase).filter((t) => t.length > 0))];
  if (phrases.length === 0) throw new RangeError('familyQuery needs at least one term');
  return scopedQuery(phrases.flatMap((p) => [`ti:${p}`, `abs:${p}`]).join(' OR '), opts);
}

/** Any search_query expression (a user's `backfill --query`), AND-ed with the categories and date window. */
export function scopedQuery(expression: string, opts: FamilyQueryOptions = {}): string {
  const parts = [`(${expression})`];
  const cats = (opts.categories ?? []).map((c) => c.trim()).filter((c) => ARXIV_CATEGORY.test(c));
  if (cats.length > 0) parts.push(`(${cats.map((c) => `cat:${c}`).join(' OR ')})`);
  if (opts.from || opts.to) {
    // The only date form the post-2025 backend accepts is a closed range, so fill an open end.
    const from = opts.from ? arxivMinute(opts.from) : '199101010000';
    const to = opts.to ? arxivMinute(opts.to) : '999912312359';
    parts.push(`submittedDate:[${from} TO ${to}]`);
  }
  return parts.join(' AND ');
}

/**
 * A title-only phrase search for resolving a paper we know by name. Everything but letters, digits
 * and spaces goes (quotes, colons, brackets, `$` and `\` would be read as query syntax). TeX command
 * names stay as words: the index sees the raw title, where `\textit{Stable}` tokenizes to "textit
 * stable", so dropping the command would break the phrase's word adjacency.
 */
export function titleQuery(title: string): string {
  const words = collapseWhitespace(title.replace(/[^\p{L}\p{N}]+/gu, ' '));
  if (!words) throw new RangeError('titleQuery needs a title with at least one letter or digit');
  return `ti:"${words}"`;
}

export interface ArxivApiParams {
  searchQuery?: string;
  idList?: string[];
  start?: number;
  maxResults?: number;
  sortBy?: 'submittedDate' | 'lastUpdatedDate' | 'relevance';
  sortOrder?: 'ascending' | 'descending';
}

/** `<base>?search_query=...`; URLSearchParams does the encoding (spaces become `+`, which arXiv reads as spaces). */
export function arxivApiUrl(base: string, params: ArxivApiParams): string {
  const url = new URL(base);
  const q = url.searchParams;
  if (params.searchQuery !== undefined) q.set('search_query', params.searchQuery);
  if (params.idList && params.idList.length > 0) q.set('id_list', params.idList.join(','));
  if (params.start !== undefined) q.set('start', String(params.start));
  if (params.maxResults !== undefined) q.set('max_results', String(params.maxResults));
  if (params.sortBy) q.set('sortBy', params.sortBy);
  if (params.sortOrder) q.set('sortOrder', params.sortOrder);
  return url.toString();
}

function queryPhrase(term: string): string {
  const t = collapseWhitespace(term.replace(/["\\]/g, ' '));
  return /^[\p{L}\p{N}]+$/u.test(t) || t === '' ? t : `"${t}"`;
}

/** YYYYMMDDHHMM in UTC, the form `submittedDate:[... TO ...]` takes. */
function arxivMinute(d: Date): string {
  return d.toISOString().slice(0, 16).replace(/[-T:]/g, '');
}
