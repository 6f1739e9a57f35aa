import type { QueueEntry } from '../../../db/queries/queue.ts';
import type { QueueItem } from '../../../db/schema.ts';
import { clip } from '../text/clip.ts';
import { LIMITS, truncate, type EmbedField, type Reply } from '../reply.ts';
import { WEEKDAY_NAMES } from '../delivery/settings.ts';
import { paperLinks } from '../papers/links.ts';
import { pagerRow } from './pager.ts';
import { discordTime } from './time.ts';
import { readable } from '../papers/latex.ts';

/**
 * A user as mention text. The adapter sends every message with empty allowedMentions, so this shows a
 * name and never pings; the console's users are not Discord ids and are shown as `@name`.
 */
export const userMention = (id: string) => (/^\d+$/.test(id) ? `<@${id}>` : `@${id}`);

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
/** A paper title in bold, as typed (markdown escaped, mentions neutralised), cut to `max`. */
export const boldTitle = (title: string, max = 200) => `**${clip(readable(title), max)}**`;

/** `2026-11-28` as "Saturday 2026-11-28" (a calendar date, no time zone involved). */
export function sessionDateText(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return `${WEEKDAY_NAMES[day] ?? ''} ${date}`.trim();
}

/** The answer to a vote press or `/queue vote`: which way it went and the new count. */
export function voteReply(
  title: string,
  o: { kind: 'voted' | 'unvoted'; item: QueueItem; votes: number; nominated: boolean },
): Reply {
  const count = plural(o.votes, 'vote');
  let content =
    o.kind === 'unvoted'
      ? `Your vote for ${boldTitle(title)} is removed: ${count} now. Vote again to put it back.`
      : o.nominated
        ? `You nominated ${boldTitle(title)} for the reading group and voted for it: ${count}. /queue show ranks the queue.`
        : `Your vote for ${boldTitle(title)} is counted: ${count}.`;
  if (o.item.status === 'scheduled' && o.item.scheduledFor)
    content += ` It is scheduled for the session of ${sessionDateText(o.item.scheduledFor)}.`;
  return { content, ephemeral: true };
}

/** The answer to `/queue add`. */
export function nominateReply(
  title: string,
  o: { kind: 'nominated' | 'queued'; item: QueueItem; votes: number; newVote: boolean },
): Reply {
  const count = plural(o.votes, 'vote');
  if (o.kind === 'nominated')
    return {
      content: `Added ${boldTitle(title)} to the reading-group queue, with your vote: ${count}. /queue show ranks the queue.`,
      ephemeral: true,
    };
  const state =
    o.item.status === 'scheduled' && o.item.scheduledFor
      ? `is scheduled for ${sessionDateText(o.item.scheduledFor)}`
      : 'is already in the queue';
  const yours = o.newVote ? 'your vote is counted' : 'you had already voted for it';
  return {
    content: `${boldTitle(title)} ${state} (nominated by ${userMention(o.item.nominatedBy)}); ${yours}: ${count}.`,
    ephemeral: true,
  };
}

/** A read paper cannot be voted back in: say when it was read. */
export function alreadyReadText(title: string, item: QueueItem): string {
  const when = item.scheduledFor ? ` (session of ${sessionDateText(item.scheduledFor)})` : '';
  return `${boldTitle(title)} was already read by the reading group${when}. /queue history lists past sessions.`;
}

function paperLink(p: QueueEntry['paper']): string {
  return `[${p.arxivId ? `arXiv ${p.arxivId}` : 'find on arXiv'}](${paperLinks(p).main})`;
}

function entryField(e: QueueEntry, rank: number, tldr: string | undefined): EmbedField {
  const meta = `**${plural(e.votes, 'vote')}** · nominated by ${userMention(e.nominatedBy)} ${discordTime(e.nominatedAt, 'R')} · ${paperLink(e.paper)}`;
  return {
    name: `${rank}. ${clip(readable(e.paper.title), LIMITS.fieldName - 8)}`,
    value: truncate([meta, tldr ? clip(tldr, 400) : ''].filter(Boolean).join('\n'), LIMITS.fieldValue),
  };
}

export interface QueuePage {
  page: number;
  pageSize: number;
  entries: QueueEntry[];
  hasMore: boolean;
  total: number;
  /** Sessions already scheduled, shown above the ranking on the first page. */
  scheduled: QueueEntry[];
  /** TL;DR per paper id. */
  tldrs: ReadonlyMap<number, string>;
  /** Custom id of the button that shows another page. */
  pageId: (page: number) => string;
}

function scheduledField(scheduled: QueueEntry[]): EmbedField {
  const lines = scheduled.map(
    (e) =>
      `**${e.scheduledFor ? sessionDateText(e.scheduledFor) : 'date to be set'}**: ${clip(readable(e.paper.title), 150)} (${plural(e.votes, 'vote')}) · ${paperLink(e.paper)}`,
  );
  return {
    name: scheduled.length === 1 ? 'Next session' : 'Scheduled sessions',
    value: truncate(lines.join('\n'), LIMITS.fieldValue),
  };
}

/** `/queue show`: the server's queue ranked by votes (ties: earliest nomination first), one page. */
export function queuePageReply(q: QueuePage): Reply {
  const fields: EmbedField[] = [];
  if (q.page === 1 && q.scheduled.length) fields.push(scheduledField(q.scheduled));
  const start = (q.page - 1) * q.pageSize;
  fields.push(...q.entries.map((e, i) => entryField(e, start + i + 1, q.tldrs.get(e.paperId))));
  const description =
    q.total === 0
      ? 'The queue is empty. Vote for a paper from a digest, or nominate one with /queue add paper:<arXiv id or title>.'
      : "Ranked by votes, ties by who was nominated first. Vote with the digest's button or /queue vote.";
  const reply: Reply = {
    embeds: [
      {
        title: 'Reading-group queue',
        description,
        fields,
        footer: `${plural(q.total, 'paper')} in the queue${q.entries.length ? ` · ${start + 1}-${start + q.entries.length}` : ''}`,
      },
    ],
  };
  if (q.page > 1 || q.hasMore) reply.components = [pagerRow(q.pageId, q.page, q.hasMore)];
  return reply;
}

/** `/queue history`: papers the group has read, newest first. */
export function historyPageReply(q: Omit<QueuePage, 'scheduled' | 'tldrs'>): Reply {
  const start = (q.page - 1) * q.pageSize;
  const fields = q.entries.map((e) => {
    const when = e.scheduledFor
      ? sessionDateText(e.scheduledFor)
      : e.doneAt
        ? e.doneAt.toISOString().slice(0, 10)
        : 'unknown date';
    const read = e.doneAt ? `marked read ${discordTime(e.doneAt, 'R')}` : 'read';
    return {
      name: `${when}: ${clip(readable(e.paper.title), LIMITS.fieldName - 40)}`,
      value: `${read} · ${plural(e.votes, 'vote')} · nominated by ${userMention(e.nominatedBy)} · ${paperLink(e.paper)}`,
    };
  });
  const reply: Reply = {
    embeds: [
      {
        title: 'Reading-group history',
        description:
          q.total === 0
            ? 'Nothing read yet. After a session, a moderator marks its paper with /queue done.'
            : 'Papers the group has read, newest first.',
        fields,
        footer: `${plural(q.total, 'paper')} read${q.entries.length ? ` · ${start + 1}-${start + q.entries.length}` : ''}`,
      },
    ],
  };
  if (q.page > 1 || q.hasMore) reply.components = [pagerRow(q.pageId, q.page, q.hasMore)];
  return reply;
}

/** At most this many voters are named in an announcement; the rest are counted. */
const VOTERS_SHOWN = 40;

/**
 * The session announcement: a heading with the date, who voted and who nominated (as mention text:
 * the adapter's empty allowedMentions means nobody is pinged; notifying voters is the notifier's job),
 * then the paper card.
 */
export function announcementReply(
  card: Reply,
  o: { title: string; date: string; voters: string[]; nominatedBy: string },
): Reply {
  const named = o.voters.slice(0, VOTERS_SHOWN).map(userMention);
  const more = o.voters.length - named.length;
  const who =
    o.voters.length === 0
      ? 'No votes yet'
      : `Voted for by ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''} (${plural(o.voters.length, 'vote')})`;
  const content = [
    `📚 **Reading group on ${sessionDateText(o.date)}**: ${boldTitle(o.title, 300)}`,
    `${who} · nominated by ${userMention(o.nominatedBy)}`,
  ].join('\n');
  return { ...card, content: truncate(content, LIMITS.content) };
}
