import { parseDay } from '../../src/core/calendar.ts';
import type { CommandDeps, CommandInput } from '../../src/core/command.ts';
import { UserFacingError } from '../../src/core/errors.ts';
import { stripUnsafeChars, type Reply } from '../../src/core/reply.ts';
import { channelMention } from '../../src/core/views/digest-config.ts';
import { paperCardReply } from '../../src/core/views/paper-card.ts';
import { alreadyReadText, announcementReply, boldTitle, sessionDateText } from '../../src/core/views/queue.ts';
import { getPaperById, getPaperDetail } from '../../db/queries/papers.ts';
import { markRead, removeFromQueue, scheduleTop } from '../../db/queries/queue.ts';
import { announceSession, type AnnounceOutcome } from '../../src/services/outbox/session-announcement.ts';
import type { Paper } from '../../db/schema.ts';
import { resolvePaper } from '../paper/resolve.ts';

/** The moderators' side of /queue: next, done, remove. Each refuses everyone else before touching anything. */
function requireModerator(input: CommandInput): void {
  if (!input.canManage) {
    throw new UserFacingError(
      'Only moderators (Manage Server or the moderator role) can schedule, finish or remove queue papers. /queue vote, add, show and history are open to everyone.',
    );
  }
}

/**
 * A session date: `YYYY-MM-DD`, a real calendar day, from yesterday (time zones: it may still be
 * yesterday where the group meets) to a year ahead. Without one, today in UTC.
 */
export function parseSessionDate(text: string | undefined, now: Date): string {
  const today = now.toISOString().slice(0, 10);
  if (text === undefined) return today;
  const day = parseDay(text);
  if (!day)
    throw new UserFacingError(
      `"${text.slice(0, 40)}" is not a date. Write the session date as YYYY-MM-DD, e.g. ${today}.`,
    );
  const days = (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000;
  if (days < -1) throw new UserFacingError(`${day} has passed. Give today's date or a later one.`);
  if (days > 366) throw new UserFacingError('Schedule at most a year ahead.');
  return day;
}

/**
 * `/queue next [date]`: the top paper becomes the session of `date`, and the announcement (paper card,
 * date, voters) is posted in this channel. Without a poster (console, CLI) the announcement is the reply.
 * The paper is scheduled before anything is posted: a failed post never loses the schedule.
 */
export async function scheduleNext(
  input: CommandInput,
  deps: CommandDeps,
  guildId: string,
  dateOption: string | undefined,
): Promise<Reply> {
  requireModerator(input);
  const date = parseSessionDate(dateOption, deps.now());
  const picked = await scheduleTop(deps.db, guildId, date);
  if (!picked)
    throw new UserFacingError(
      'The queue is empty: nothing to schedule. Members vote papers in from digests or with /queue add.',
    );
  const paper = (await getPaperById(deps.db, picked.item.paperId))!;
  const card = paperCardReply(await getPaperDetail(deps.db, paper));
  const announcement = announcementReply(card, {
    title: paper.title,
    date,
    voters: picked.voters,
    nominatedBy: picked.item.nominatedBy,
  });
  if (!deps.poster || !input.channelId) return announcement;
  const where = channelMention(input.channelId);
  const outcome = await announceSession(
    { ...deps, poster: deps.poster },
    {
      guildId,
      channelId: input.channelId,
      itemId: picked.item.id,
      date,
      announcement,
      threadName: stripUnsafeChars(`Reading group ${date}: ${paper.title}`).slice(0, 100),
      voters: picked.voters,
      voterText: `📚 A paper you voted for, ${boldTitle(paper.title)}, is the reading group's paper for ${sessionDateText(date)}. Discussion: ${where}.`,
    },
  );
  return announceAnswer(
    `Scheduled ${boldTitle(paper.title)} for ${sessionDateText(date)}`,
    where,
    announcement,
    outcome,
  );
}

/** What the moderator sees: where it was announced and how many voters were told, or the announcement to share by hand. */
function announceAnswer(scheduled: string, where: string, announcement: Reply, outcome: AnnounceOutcome): Reply {
  if (!outcome.posted)
    return {
      ...announcement,
      content:
        `${scheduled}, but the announcement could not be posted here (${outcome.why}). Share it yourself:\n${announcement.content ?? ''}`.slice(
          0,
          2000,
        ),
      ephemeral: true,
    };
  const { told } = outcome;
  return {
    content: `${scheduled} and announced it in ${where}${told ? `; ${told} voter${told === 1 ? ' was' : 's were'} told by direct message` : ''}. After the session, /queue done marks it read.`,
    ephemeral: true,
  };
}

async function titleOf(deps: CommandDeps, paper: Paper | undefined, paperId: number): Promise<string> {
  return paper?.title ?? (await getPaperById(deps.db, paperId))?.title ?? `paper ${paperId}`;
}

/** `/queue done [paper]`: the given paper, else the earliest scheduled session, is read and moves to the history. */
export async function markDone(
  input: CommandInput,
  deps: CommandDeps,
  guildId: string,
  ref: string | undefined,
): Promise<Reply> {
  requireModerator(input);
  const paper = ref === undefined ? undefined : await resolvePaper(deps, ref);
  const o = await markRead(deps.db, guildId, paper?.id, deps.now());
  switch (o.kind) {
    case 'nothing-scheduled':
      throw new UserFacingError(
        'No session is scheduled. /queue next schedules the top paper; /queue done paper:<id> marks a given paper read.',
      );
    case 'not-queued':
      throw new UserFacingError(`${paper ? boldTitle(paper.title) : 'That paper'} is not in this server's queue.`);
    case 'already-read':
      throw new UserFacingError(alreadyReadText(await titleOf(deps, paper, o.item.paperId), o.item));
    case 'done': {
      const title = await titleOf(deps, paper, o.item.paperId);
      const when = o.item.scheduledFor ? ` (session of ${sessionDateText(o.item.scheduledFor)})` : '';
      return {
        content: `Marked ${boldTitle(title)} read${when}. It has left the queue; /queue history remembers it.`,
        ephemeral: true,
      };
    }
  }
}

/** `/queue remove paper`: out of the queue (or its scheduled session), votes dropped. */
export async function removePaper(
  input: CommandInput,
  deps: CommandDeps,
  guildId: string,
  ref: string,
): Promise<Reply> {
  requireModerator(input);
  const paper = await resolvePaper(deps, ref);
  const o = await removeFromQueue(deps.db, { guildId, paperId: paper.id });
  if (o.kind === 'not-queued') throw new UserFacingError(`${boldTitle(paper.title)} is not in this server's queue.`);
  if (o.kind === 'already-read')
    throw new UserFacingError(`${alreadyReadText(paper.title, o.item)} Read papers stay in the history.`);
  return {
    content: `Removed ${boldTitle(paper.title)} from the queue (${o.votes} vote${o.votes === 1 ? '' : 's'} dropped). A new vote or /queue add would nominate it afresh.`,
    ephemeral: true,
  };
}
