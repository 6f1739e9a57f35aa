/**
 * The digest's first lines: title, date and what each feed brought, e.g.
 * "GRPO digest · 2026-11-21 · arXiv cs.LG: 412 new, 7 GRPO-family · HF: 3", then one warning line
 * per feed that is stale, empty, failing or silent, so a quiet digest caused by a broken source
 * is never mistaken for a quiet day. Pure.
 */
import type { DigestLabels } from './labels.ts';
import { neutralizeMentions, untrustedText } from '../reply.ts';
import { fit, squash } from '../text/clip.ts';
import type { DigestInput, FeedHealth } from './types.ts';

/** A feed whose last success is older than this is reported even when its recorded health is ok. */
export const SILENT_AFTER_HOURS = 36;

export function feedLabel(feed: string): string {
  if (feed.startsWith('arxiv-rss:')) return `arXiv ${feed.slice('arxiv-rss:'.length)}`;
  if (feed === 'arxiv-api') return 'arXiv API';
  if (feed === 'hf-daily') return 'HF';
  return feed;
}

/** RSS categories first (alphabetically), then the API, then Hugging Face, then anything else. */
function feedOrder(feed: string): string {
  if (feed.startsWith('arxiv-rss:')) return `0${feed}`;
  if (feed === 'arxiv-api') return '1';
  if (feed === 'hf-daily') return '2';
  return `3${feed}`;
}

function warning(f: FeedHealth, now: Date, l: DigestLabels): string | undefined {
  const label = feedLabel(f.feed);
  // A failing feed's detail is an error (it may quote an upstream): /status shows it, a public
  // digest does not. A stale or empty feed's detail is the bot's own words.
  const detail = f.healthDetail && f.health !== 'failing' ? `: ${fit(untrustedText(squash(f.healthDetail)), 240)}` : '';
  if (f.health === 'failing' || f.health === 'stale' || f.health === 'empty')
    return `⚠ ${label} ${l.warn[f.health]}${detail}`;
  if (!f.lastSuccessAt) return `⚠ ${label} ${l.warn.never}`;
  if (now.getTime() - f.lastSuccessAt.getTime() > SILENT_AFTER_HOURS * 3_600_000) {
    return `⚠ ${label} ${l.warn.silent} ${f.lastSuccessAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  }
  return undefined;
}

export interface DigestHeader {
  /** Title, date and per-feed counts. */
  line: string;
  warnings: string[];
}

export function digestHeader(
  input: Pick<DigestInput, 'channel' | 'date' | 'now' | 'feeds'>,
  l: DigestLabels,
): DigestHeader {
  const feeds = [...input.feeds].sort((a, b) => feedOrder(a.feed).localeCompare(feedOrder(b.feed)));
  const counts = feeds.map((f) => {
    const n = f.feed.startsWith('arxiv-rss:')
      ? l.feedCounts(f.lastNewCount, f.lastFamilyCount)
      : l.familyCount(f.lastFamilyCount);
    return `${feedLabel(f.feed)}: ${f.health && f.health !== 'ok' ? '⚠' : n}`;
  });
  const line = [l.title[input.channel.cadence], input.date, ...counts].join(' · ');
  const warnings = feeds.map((f) => warning(f, input.now, l)).filter((w): w is string => Boolean(w));
  return { line: neutralizeMentions(line), warnings: warnings.map(neutralizeMentions) };
}
