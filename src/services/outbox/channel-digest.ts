/**
 * What a channel's digest is composed from: its settings, the window since its last digest, the
 * candidate papers of that window with this server's reading-group votes, the summary to show per
 * shown paper, and the feeds' health. Reads only; composing is src/core/digest/compose.ts (pure),
 * posting is deliver.ts.
 */
import type { Db } from '../../../db/client.ts';
import { getChannel } from '../../../db/queries/channels.ts';
import { loadDigestCandidates, loadFeedHealth, loadSampleCandidates } from '../../../db/queries/digest.ts';
import type { Channel } from '../../../db/schema.ts';
import { composeDigest } from '../../core/digest/compose.ts';
import { selectPapers } from '../../core/digest/select.ts';
import type { DigestChannel, DigestInput, DigestMessage } from '../../core/digest/types.ts';
import { digestWindow, type DigestWindow } from '../../core/digest/window.ts';
import { digestSummaries } from '../summarize/show.ts';

/** The row's settings as the composer reads them; unknown stored values fall back to the defaults. */
export function toDigestChannel(row: Channel): DigestChannel {
  return {
    channelId: row.channelId,
    language: row.language === 'zh' ? 'zh' : 'en',
    cadence: row.cadence === 'weekly' ? 'weekly' : 'daily',
    topics: row.topics,
    maxPapers: row.maxPapers,
    minScore: row.minScore,
    quietDay: row.quietDay === 'notice' ? 'notice' : 'nothing',
    pingRoleId: row.pingRoleId,
    threadPerPaper: row.threadPerPaper,
    headerImage: row.headerImage,
  };
}

export interface ChannelDigest {
  channel: Channel;
  window: DigestWindow;
  input: DigestInput;
  /** Built from the latest GRPO-family papers because nothing is new (`sample` asked): never posted. */
  sample: boolean;
}

/**
 * Everything `composeDigest` needs for one channel: now, or (with `date`) as at the channel's post
 * time on that local date. Undefined when the channel has no digest configured. Summaries are
 * loaded only for the papers the digest will show. With `sample`, a window with nothing new is
 * filled with the channel's latest GRPO-family papers instead, so a newcomer sees what a digest
 * looks like (previews and dry runs only; marked `sample`).
 */
export async function loadChannelDigest(
  db: Db,
  channelId: string,
  opts: { now: Date; date?: string; sample?: boolean },
): Promise<ChannelDigest | undefined> {
  const row = await getChannel(db, channelId);
  if (!row) return undefined;
  const channel = toDigestChannel(row);
  const window = digestWindow(row, opts);
  const query = {
    guildId: row.guildId,
    since: window.since,
    until: window.until,
    topics: channel.topics,
    minScore: channel.minScore,
  };
  const [news, feeds] = await Promise.all([loadDigestCandidates(db, query), loadFeedHealth(db)]);
  const now = window.until;
  const sample = Boolean(opts.sample) && selectPapers(news, channel, window.since, now).shown.length === 0;
  const candidates = sample ? await loadSampleCandidates(db, { ...query, limit: channel.maxPapers }) : news;
  const { shown } = selectPapers(candidates, channel, window.since, now);
  const summaries = await digestSummaries(
    db,
    shown.map((p) => p.id),
    channel.language,
  );
  return {
    channel: row,
    window,
    sample,
    input: {
      channel,
      date: window.date,
      now,
      since: window.since,
      papers: candidates,
      summaries,
      feeds,
      ...(sample && { sample }),
    },
  };
}

/** The messages of a channel's digest for a digest key, as at `now` (empty when the channel is gone). */
export async function composeChannelDigest(
  db: Db,
  channel: Channel,
  _digestKey: string,
  now: Date,
): Promise<DigestMessage[]> {
  const digest = await loadChannelDigest(db, channel.channelId, { now });
  return digest ? composeDigest(digest.input) : [];
}
