/**
 * arXiv RSS (rss.arxiv.org, the 2024 format) -> PaperCandidate. Pure: the HTTP layer fetches, checks
 * the status and hands the body here. Format facts: docs/feed-formats.md §1 and §4.
 */

import { describeBody, firstLine, repairXml } from './body.ts';
import Parser from 'rss-parser';
import { parseArxivId, type ArxivIdParts } from '../../core/papers/identity.ts';
import { splitCreators } from './authors.ts';
import {
  collapseWhitespace,
  FeedError,
  type AnnounceType,
  type PaperCandidate,
  type ParsedFeed,
  type SkippedItem,
} from '../../core/papers/candidate.ts';
import { admitAll } from './sanitize.ts';
import { RssScanner } from './rss-scan.ts';

export interface RssMeta {
  /** `cs.LG, cs.CL updates on arXiv.org`. */
  title?: string;
  /** The announcement midnight (US Eastern) as ISO UTC. */
  pubDate?: string;
  lastBuildDate?: string;
}

interface ArxivRssItem {
  'arxiv:announce_type'?: unknown;
  'arxiv:DOI'?: unknown;
  'arxiv:journal_reference'?: unknown;
}

type Item = Parser.Item & ArxivRssItem;

/** A parser per document: one that failed can answer the next document wrongly ("Unable to parse XML."). */
const newParser = () =>
  new Parser<Record<string, unknown>, ArxivRssItem>({
    customFields: { item: ['arxiv:announce_type', 'arxiv:DOI', 'arxiv:journal_reference'] },
  });

/** A category's daily listing has up to ~2,000 items; more is not a listing. */
const MAX_ITEMS = 10_000;

const ANNOUNCE_TYPES: readonly string[] = ['new', 'cross', 'replace', 'replace-cross'] satisfies AnnounceType[];

/**
 * `arXiv:<id>v<N> Announce Type: <type> \nAbstract: <abstract>`. The generator puts a space before
 * the newline; third-party copies drop it, so any whitespace (or none) is accepted there.
 */
const DESCRIPTION = /^\s*arXiv:(?<id>\S+)\s+Announce Type:\s*(?<type>[A-Za-z-]+)\s*Abstract:(?<abs>[\s\S]*)$/;

// An error feed is a well-formed RSS document (served with HTTP 400) with no items.
const ERROR_TITLE = /^Feed error for query/;

/** Builds the one combined feed URL for several categories: `<base>/cs.LG+cs.CL`. */
export function arxivRssUrl(base: string, categories: string[]): string {
  const cats = categories.map((c) => c.trim()).filter((c) => c.length > 0);
  if (cats.length === 0) throw new RangeError('arxivRssUrl needs at least one category');
  return `${base.replace(/\/+$/, '')}/${cats.join('+')}`;
}

/** Items parsed at a time: one batch's parse tree is what a poll keeps alive, never a whole listing's. */
export const RSS_BATCH = 200;

/** A batch of items, as candidates and skipped items. */
export interface RssPage {
  candidates: PaperCandidate[];
  skipped: SkippedItem[];
}

/** What the channel header says, and the document's `<rss ...>` tag each batch is wrapped in. */
interface Channel {
  rssTag: string;
  pubDate: string | undefined;
  meta: RssMeta;
}

/** The document's start up to its `<rss ...>` tag (an XML declaration and comments may come first). */
const RSS_START = /^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(<rss(?:\s[^>]*)?>)/;

/**
 * Parses one arXiv RSS body. Every announce type is kept (the caller decides: `replace` bumps a
 * version and is never news); items that cannot become candidates are listed in `skipped`. Throws
 * FeedError when the body is not an arXiv RSS feed at all or is arXiv's error feed.
 */
export async function parseArxivRss(xml: string): Promise<ParsedFeed<RssMeta>> {
  const candidates: PaperCandidate[] = [];
  const skipped: SkippedItem[] = [];
  const pages = arxivRssPages(
    (async function* () {
      yield xml;
    })(),
  );
  for (let step = await pages.next(); ; step = await pages.next()) {
    if (step.done) return { candidates, skipped, meta: step.value };
    candidates.push(...step.value.candidates);
    skipped.push(...step.value.skipped);
  }
}

/**
 * Reads an arXiv RSS body as it arrives (`chunks`: its text, in order) and yields its items `batch` at
 * a time, each batch parsed on its own by rss-parser, so memory holds one batch, never the listing.
 * The channel header is checked before any page (not RSS, arXiv's error feed: FeedError). An item the
 * XML parser refuses is skipped alone. A body that stops inside an item or ends badly throws
 * FeedError after the pages before it. Returns the channel's meta.
 */
export async function* arxivRssPages(
  chunks: AsyncIterable<string>,
  batch = RSS_BATCH,
): AsyncGenerator<RssPage, RssMeta, void> {
  const scanner = new RssScanner();
  let channel: Channel | undefined;
  let pending: string[] = [];
  let count = 0;
  for await (const text of chunks) {
    scanner.push(text);
    const items = scanner.take();
    if (items.length === 0) continue;
    channel ??= await readChannel(scanner.header ?? '', false);
    // Past the limit, items are only counted: a hostile listing of a million costs no more than a full one.
    pending.push(...items.slice(0, Math.max(0, MAX_ITEMS - count)));
    count += items.length;
    while (pending.length >= batch) {
      yield await parseBatch(channel, pending.slice(0, batch));
      pending = pending.slice(batch);
    }
  }
  const end = scanner.end();
  if (end.kind === 'no-items') return (await readChannel(end.document, true)).meta;
  channel ??= await readChannel(scanner.header ?? '', false);
  if (pending.length > 0) yield await parseBatch(channel, pending);
  if (count > MAX_ITEMS) {
    const over = count - MAX_ITEMS;
    yield { candidates: [], skipped: [{ reason: `${over} items over the ${MAX_ITEMS}-item page limit`, count: over }] };
  }
  // What follows the last item must close the channel and the document, as a whole document's parse would ask.
  await parseDocument(`${channel.rssTag}<channel>${end.kind === 'in-item' ? end.partial : end.trailer}`);
  return channel.meta;
}

/** The channel from the text before the first item (`whole`: the whole document, which has no item). */
async function readChannel(header: string, whole: boolean): Promise<Channel> {
  if (whole && header.trim() === '') throw new FeedError('arXiv RSS: empty response body');
  const rssTag = RSS_START.exec(header)?.[1];
  if (!rssTag) throw new FeedError(`arXiv RSS: not an RSS document (${describeBody(header)})`);
  const feed = await parseDocument(whole ? header : `${header}</channel></rss>`);
  const title = text(feed.title);
  if (title && ERROR_TITLE.test(title)) {
    throw new FeedError(`arXiv RSS error feed: ${text(feed.description) ?? title}`);
  }
  const pubDate = text(feed['pubDate']);
  const meta: RssMeta = { title, pubDate: isoDate(pubDate), lastBuildDate: isoDate(text(feed['lastBuildDate'])) };
  return { rssTag, pubDate, meta };
}

type Feed = Awaited<ReturnType<ReturnType<typeof newParser>['parseString']>>;

async function parseDocument(xml: string): Promise<Feed> {
  try {
    return await newParser().parseString(repairXml(xml));
  } catch (err) {
    throw new FeedError(`arXiv RSS: unreadable feed (${firstLine(err)})`, { cause: err });
  }
}

/** One batch in one small document; when the parser refuses it, each item alone, so a bad one costs only itself. */
async function parseBatch(channel: Channel, items: string[]): Promise<RssPage> {
  const wrap = (xs: string[]) => `${channel.rssTag}<channel>${xs.join('')}</channel></rss>`;
  let parsed: (Item | SkippedItem)[];
  try {
    parsed = (await newParser().parseString(repairXml(wrap(items)))).items;
  } catch {
    parsed = [];
    for (const item of items) {
      try {
        parsed.push(...(await newParser().parseString(repairXml(wrap([item])))).items);
      } catch (err) {
        parsed.push({ reason: `unreadable item (${firstLine(err)})`, externalId: GUID.exec(item)?.[1] });
      }
    }
  }
  return admitAll(parsed, (x) => ('reason' in x ? x : toCandidate(x, channel.pubDate)), parsed.length);
}

/** The guid of an item the parser refused, to name it in the log. */
const GUID = /<guid[^>]*>\s*([^<\s]{1,100})\s*<\/guid>/;

function toCandidate(item: Item, channelPubDate: string | undefined): PaperCandidate | SkippedItem {
  // `content` is the decoded description; `contentSnippet` strips everything between < and >,
  // which eats abstracts that say "n < 10 ... > 0".
  const content = item.content ?? '';
  const prefix = DESCRIPTION.exec(content)?.groups;
  const ids = identify(prefix?.['id'], item);
  const externalId = ids ? externalIdOf(ids) : undefined;
  if (!ids || !externalId)
    return { reason: 'no arXiv id in description, guid or link', externalId: text(item.guid) ?? text(item.link) };

  const title = collapseWhitespace(text(item.title) ?? '');
  if (!title) return { reason: 'item has no title', externalId };

  const type = text(item['arxiv:announce_type']) ?? prefix?.['type'];
  if (!type) return { reason: 'item has no announce type', externalId };
  if (!ANNOUNCE_TYPES.includes(type)) return { reason: `announce type "${type}" is not a listing`, externalId };

  const candidate: PaperCandidate = {
    source: 'arxiv-rss',
    externalId,
    arxivId: ids.id,
    version: ids.version,
    title,
    abstract: collapseWhitespace(prefix ? (prefix['abs'] ?? '') : content),
    authors: splitCreators(text(item.creator) ?? ''),
    categories: unique((item.categories ?? []).map(text).filter((c): c is string => !!c)),
    announceType: type as AnnounceType,
    publishedOn: easternDate(text(item.pubDate) ?? channelPubDate),
    // Provenance without the abstract and title (stored on the paper): a day's listing is thousands of items.
    raw: {
      guid: item.guid,
      link: item.link,
      categories: item.categories,
      pubDate: item.pubDate,
      creator: item.creator,
      rights: (item as { rights?: unknown }).rights,
      announceType: type,
      doi: item['arxiv:DOI'],
      journalRef: item['arxiv:journal_reference'],
    },
  };
  const doi = text(item['arxiv:DOI']);
  const journalRef = text(item['arxiv:journal_reference']);
  if (doi) candidate.doi = doi;
  if (journalRef) candidate.journalRef = collapseWhitespace(journalRef);
  return candidate;
}

/** The description prefix carries the version; the guid (`oai:arXiv.org:<id>vN`) too; the link never. */
function identify(fromDescription: string | undefined, item: Item): ArxivIdParts | null {
  const guid = text(item.guid)?.replace(/^oai:arXiv\.org:/i, '');
  for (const candidate of [fromDescription, guid, text(item.link)]) {
    const parsed = candidate ? parseArxivId(candidate) : null;
    if (parsed) return parsed;
  }
  return null;
}

function externalIdOf(ids: ArxivIdParts): string {
  return ids.version === undefined ? ids.id : `${ids.id}v${ids.version}`;
}

const EASTERN = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * The announcement date as arXiv counts it. pubDate is midnight US Eastern (`-0500`/`-0400`); in UTC
 * that is 04:00/05:00 of the same day, but reading it in Eastern time keeps it right even if a
 * feed ever states the offset differently.
 */
export function easternDate(rfc822: string | undefined): string | undefined {
  if (!rfc822) return undefined;
  const d = new Date(rfc822.trim());
  return Number.isNaN(d.getTime()) ? undefined : EASTERN.format(d);
}

function isoDate(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const d = new Date(s.trim());
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** xml2js gives strings, or `{ _: text, $: attrs }` when the element has attributes. */
function text(v: unknown): string | undefined {
  const s =
    typeof v === 'string' ? v : v && typeof v === 'object' && '_' in v && typeof v._ === 'string' ? v._ : undefined;
  const trimmed = s?.trim();
  return trimmed ? trimmed : undefined;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
