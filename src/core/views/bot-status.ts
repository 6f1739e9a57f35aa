import { feedLabel } from '../digest/header.ts';
import { truncate, untrustedText, type Reply } from '../reply.ts';
import { whenText } from './time.ts';

/** What /status shows of a feed (db's feed_state rows). */
export interface FeedStatus {
  feed: string;
  health: string | null;
  healthDetail: string | null;
  lastError: string | null;
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
}

/** Everything `/status` reports, gathered by the command. */
export interface BotStatus {
  feeds: FeedStatus[];
  lastPoll?: { startedAt: Date; finishedAt: Date | null; status: string; error: string | null };
  /** The last summary run, and the failed summaries of the current prompt version. */
  lastSummaries?: { startedAt: Date; status: string; error: string | null };
  failedSummaries: { retrying: number; gaveUp: number };
  /** GRPO-family papers by the state of their newest full text: read, no HTML rendering, fetch failed, not fetched yet. */
  texts: { ok: number; noHtml: number; failed: number; missing: number };
  /** Papers in the GRPO family: the one count every command gives (db/queries/status.ts `grpoFamilyCount`). */
  familyTotal: number;
  /** The scheduler's next poll; null when it has none, undefined when no scheduler runs in this process. */
  nextPoll: Date | null | undefined;
  pollCron: string;
  /** Papers that became news today (not the seed import or a backfill). */
  papersToday: { news: number; family: number };
  spendUsd: number;
  budgetUsd: number;
  llmConfigured: boolean;
  digests: { since: number; total: number };
  channels: { enabled: number; paused: number };
  /** Semantic Scholar's citation counts: coverage, freshness and the last refresh (absent: not shown). */
  citations?: CitationStatus;
}

/** What /status says of the citation counts. */
export interface CitationStatus {
  /** GRPO-family papers with an arXiv id (those a refresh asks about), and how many have counts. */
  family: number;
  withCounts: number;
  /** When the newest counts were read. */
  newest: Date | null;
  lastRun?: { startedAt: Date; status: string; error: string | null };
  /** S2_API_KEY is set (its own 1 request/s) or not (the shared pool). */
  keyed: boolean;
}

/** Coverage, freshness, the last refresh and why it stopped (the job's own words: 429s, an outage). */
function citationsLine(c: CitationStatus): string {
  const bits = [`${c.withCounts} of ${c.family} GRPO-family papers have counts`];
  if (c.newest) bits.push(`newest from ${whenText(c.newest)}`);
  bits.push(
    c.lastRun
      ? `last refresh ${whenText(c.lastRun.startedAt)} · ${c.lastRun.status}${c.lastRun.error ? ` · ${said(c.lastRun.error, 300)}` : ''}`
      : 'never refreshed (daily on S2_CRON, or `grpo-digest citations`)',
  );
  if (!c.keyed) bits.push('no S2_API_KEY: shared pool, often rate-limited');
  return bits.join(' · ');
}

const ICON: Record<string, string> = { ok: '✅', stale: '⚠️', empty: '⚠️', failing: '❌' };

/** An error or health detail: it quotes what an upstream server said, so it is shown as text, on one line. */
const said = (text: string, max: number) => truncate(untrustedText(text.replace(/\s+/g, ' ')), max);

function feedLine(f: FeedStatus): string {
  const health = f.health ?? 'not polled yet';
  const bits = [`${ICON[f.health ?? ''] ?? '❔'} **${feedLabel(f.feed)}**: ${health}`];
  if (f.healthDetail && f.health !== 'ok') bits.push(said(f.healthDetail, 160));
  bits.push(f.lastSuccessAt ? `last success ${whenText(f.lastSuccessAt)}` : 'never succeeded');
  // A failing feed's detail already gives the streak and the error: say them once.
  if (f.consecutiveFailures > 0 && f.health !== 'failing')
    bits.push(
      `${f.consecutiveFailures} failure${f.consecutiveFailures === 1 ? '' : 's'} in a row${f.lastError ? ` (${said(f.lastError, 120)})` : ''}`,
    );
  return bits.join(' · ');
}

/** Summaries waiting for another attempt or failed for good, and a last run that failed (e.g. the API refuses the model). */
function summariesLine(s: BotStatus): string {
  const { retrying, gaveUp } = s.failedSummaries;
  const bits = [`${retrying} waiting to be retried`];
  if (gaveUp) bits.push(`${gaveUp} failed for good (extractive summary shown)`);
  if (s.lastSummaries)
    bits.push(
      `last run ${whenText(s.lastSummaries.startedAt)} · ${s.lastSummaries.status}${s.lastSummaries.error ? ` · ${said(s.lastSummaries.error, 300)}` : ''}`,
    );
  return bits.join(' · ');
}

const textTotal = (t: BotStatus['texts']) => t.ok + t.noHtml + t.failed + t.missing;

/** Full texts of the GRPO-family papers: how many were read, and what became of the others. */
function textsLine(t: BotStatus['texts']): string {
  const bits = [`${t.ok} read`];
  if (t.noHtml) bits.push(`${t.noHtml} without an HTML version (abstract used)`);
  if (t.failed) bits.push(`${t.failed} failed to fetch`);
  if (t.missing)
    bits.push(`${t.missing} not fetched yet (each poll reads a few; \`grpo-digest fetch-text\` backfills)`);
  return bits.join(' · ');
}

const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;

/** `/status`: sources' health, polls, today's papers, LLM spend against the budget, summaries waiting for a retry, full texts, digests. */
export function botStatusReply(s: BotStatus): Reply {
  const feeds = s.feeds.length
    ? s.feeds.map(feedLine).join('\n')
    : 'No feed has been polled yet (`grpo-digest poll`, or wait for the scheduled poll).';
  const lastPoll = s.lastPoll
    ? `${whenText(s.lastPoll.startedAt)} · ${s.lastPoll.status}${s.lastPoll.finishedAt ? ` in ${Math.max(0, Math.round((s.lastPoll.finishedAt.getTime() - s.lastPoll.startedAt.getTime()) / 1000))} s` : ''}${s.lastPoll.error ? ` · ${said(s.lastPoll.error, 200)}` : ''}`
    : 'never';
  const nextPoll =
    s.nextPoll === undefined
      ? `scheduler not running in this process (POLL_CRON \`${s.pollCron}\`, UTC)`
      : s.nextPoll
        ? whenText(s.nextPoll)
        : 'not scheduled';
  const pct = s.budgetUsd > 0 ? ` (${Math.round((100 * s.spendUsd) / s.budgetUsd)}%)` : '';
  const llm = `${usd(s.spendUsd)} of ${usd(s.budgetUsd)} today${pct}${s.llmConfigured ? '' : ' · no ANTHROPIC_API_KEY: extractive summaries'}`;
  return {
    embeds: [
      {
        title: 'grpo-digest status',
        description: truncate(`**Sources**\n${feeds}`, 4000),
        fields: [
          { name: 'Last poll', value: lastPoll, inline: true },
          { name: 'Next poll', value: nextPoll, inline: true },
          {
            name: 'Papers today (UTC)',
            value: `${s.papersToday.news} new, ${s.papersToday.family} GRPO-family`,
            inline: true,
          },
          { name: 'LLM spend (UTC day)', value: llm, inline: true },
          { name: 'Summaries', value: summariesLine(s), inline: false },
          {
            name: 'GRPO family',
            value: `${s.familyTotal} papers in the GRPO family (the count /topics, /family list and /trends give)`,
            inline: false,
          },
          {
            name: `Full texts (the ${textTotal(s.texts)} of the ${s.familyTotal} GRPO-family papers with an arXiv id)`,
            value: textsLine(s.texts),
            inline: false,
          },
          ...(s.citations
            ? [
                {
                  name: 'Citations (Semantic Scholar)',
                  value: truncate(citationsLine(s.citations), 1024),
                  inline: false,
                },
              ]
            : []),
          {
            name: 'Digests',
            value: `${s.digests.since} message${s.digests.since === 1 ? '' : 's'} sent today, ${s.digests.total} in total · ${s.channels.enabled} channel${s.channels.enabled === 1 ? '' : 's'}${s.channels.paused ? `, ${s.channels.paused} paused` : ''}`,
            inline: true,
          },
        ],
      },
    ],
    ephemeral: true,
  };
}
