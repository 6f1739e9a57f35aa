import {
  optionsOf,
  type Command,
  type CommandDefinition,
  type CommandDeps,
  type CommandInput,
  type ComponentInput,
  type ComponentReply,
} from '../src/core/command.ts';
import { CUSTOM_IDS } from '../src/core/custom-id.ts';
import { UserFacingError } from '../src/core/errors.ts';
import { errorReply, type Reply } from '../src/core/reply.ts';
import { summariesToShow } from '../src/services/summarize/show.ts';
import {
  alreadyReadText,
  historyPageReply,
  nominateReply,
  queuePageReply,
  voteReply,
} from '../src/core/views/queue.ts';
import { getPaperById } from '../db/queries/papers.ts';
import { nominate, queueEntries, toggleVote } from '../db/queries/queue.ts';
import type { Paper } from '../db/schema.ts';
import { paperChoices } from './paper.ts';
import { resolvePaper } from './paper/resolve.ts';
import { markDone, removePaper, scheduleNext } from './queue/session.ts';
import { historyBibtex } from './queue/bibtex.ts';
import { pageInRange, pastTheEnd } from '../src/core/views/pager.ts';

const PAGE_SIZE = 5;
const PAGE_MAX = 100;

const paperOption = (description: string) =>
  ({
    name: 'paper',
    description,
    type: 'string',
    required: true,
    autocomplete: true,
    maxLength: 300,
  }) as const;
const pageOption = {
  name: 'page',
  description: 'Which page',
  type: 'integer',
  minValue: 1,
  maxValue: PAGE_MAX,
} as const;

const definition = {
  name: 'queue',
  description: 'The reading-group queue: vote papers in, see the ranking, schedule sessions',
  subcommands: [
    {
      name: 'vote',
      description: 'Vote for a paper (again to take the vote back); adds it to the queue if needed',
      options: [paperOption('arXiv id, link or title')],
    },
    {
      name: 'add',
      description: 'Nominate a paper for the reading group (with your vote)',
      options: [paperOption('arXiv id, link or title')],
    },
    { name: 'show', description: 'The queue ranked by votes, with TL;DRs', options: [pageOption] },
    {
      name: 'next',
      description: 'Moderators: schedule the top paper and announce it here',
      options: [
        { name: 'date', description: 'Session date, YYYY-MM-DD (default: today, UTC)', type: 'string', maxLength: 10 },
      ],
    },
    {
      name: 'done',
      description: 'Moderators: mark the scheduled (or given) paper read',
      options: [{ ...paperOption('The paper read (default: the scheduled one)'), required: false }],
    },
    {
      name: 'remove',
      description: 'Moderators: take a paper out of the queue',
      options: [paperOption('arXiv id, link or title')],
    },
    {
      name: 'history',
      description: 'Papers the reading group has read (bibtex: all of them as a .bib file)',
      options: [
        pageOption,
        { name: 'bibtex', description: 'Attach every paper read as a BibTeX file instead', type: 'boolean' },
      ],
    },
  ],
} as const satisfies CommandDefinition;

/**
 * `/queue vote|add|show|next|done|remove|history`: the server's reading-group queue. Anyone votes,
 * nominates and looks; moderators (Manage Server or the moderator role) schedule, finish and remove.
 * Also answers the digest's "Vote for reading group" buttons (`vote:<paperId>`).
 */
export const queue: Command = {
  definition,
  componentPrefixes: ['vote'],
  slow: (subcommand) => subcommand === 'next', // posts the announcement
  async execute(input, deps) {
    const guildId = requireGuild(input.guildId);
    switch (input.subcommand) {
      case 'vote':
        return vote(deps, guildId, await resolvePaper(deps, optionsOf(definition, input, 'vote').paper), input.user.id);
      case 'add':
        return add(input, deps, guildId, optionsOf(definition, input, 'add').paper);
      case 'show':
        return showPage(deps, guildId, optionsOf(definition, input, 'show').page ?? 1);
      case 'history': {
        const o = optionsOf(definition, input, 'history');
        return o.bibtex ? historyBibtex(deps, guildId) : historyPage(deps, guildId, o.page ?? 1);
      }
      case 'next':
        return scheduleNext(input, deps, guildId, optionsOf(definition, input, 'next').date);
      case 'done':
        return markDone(input, deps, guildId, optionsOf(definition, input, 'done').paper);
      case 'remove':
        return removePaper(input, deps, guildId, optionsOf(definition, input, 'remove').paper);
      default:
        throw new UserFacingError('Use /queue vote, add, show, next, done, remove or history.');
    }
  },
  async component(input, deps) {
    const guildId = requireGuild(input.guildId);
    if (input.customId.startsWith(`${CUSTOM_IDS.vote.prefix}:`)) {
      const pressed = CUSTOM_IDS.vote.decode(input.customId);
      // Not an id the bot made (e.g. /press vote:2507.18071 typed by hand): say how to vote instead.
      if (!pressed)
        throw new UserFacingError(
          `"${input.customId.slice(0, 60)}" is not a vote button the bot made. To vote for a paper, use /queue vote paper:<arXiv id or title>.`,
        );
      return pressVote(pressed.paper, input, deps, guildId);
    }
    const page = CUSTOM_IDS.queuePage.decode(input.customId);
    if (page) return pressPage(deps, guildId, 'page', page.page);
    const history = CUSTOM_IDS.queueHistory.decode(input.customId);
    if (history) return pressPage(deps, guildId, 'history', history.page);
    throw new UserFacingError('That button no longer works. Run /queue show again.');
  },
  async autocomplete(_input, focused, deps) {
    return focused.name === 'paper' ? paperChoices(deps, focused.value) : [];
  },
};

function requireGuild(guildId: string | undefined): string {
  if (!guildId)
    throw new UserFacingError('The reading-group queue belongs to a server: use it there, not in direct messages.');
  return guildId;
}

async function vote(deps: CommandDeps, guildId: string, paper: Paper, userId: string): Promise<Reply> {
  const outcome = await toggleVote(deps.db, { guildId, paperId: paper.id }, userId, deps.now());
  if (outcome.kind === 'read') throw new UserFacingError(alreadyReadText(paper.title, outcome.item));
  return voteReply(paper.title, outcome);
}

/** "Vote for reading group" on a digest paper (`vote:<paperId>`): the same toggle as /queue vote, answered only to the voter. */
async function pressVote(
  id: number,
  input: ComponentInput,
  deps: CommandDeps,
  guildId: string,
): Promise<ComponentReply> {
  const paper = id > 0 ? await getPaperById(deps.db, id) : undefined;
  if (!paper)
    return errorReply(
      'That button names no paper in the corpus, so there is nothing to vote for. /queue list shows the queue.',
    );
  return vote(deps, guildId, paper, input.user.id);
}

async function add(input: CommandInput, deps: CommandDeps, guildId: string, ref: string): Promise<Reply> {
  const paper = await resolvePaper(deps, ref);
  const outcome = await nominate(deps.db, { guildId, paperId: paper.id }, input.user.id, deps.now());
  if (outcome.kind === 'read') throw new UserFacingError(alreadyReadText(paper.title, outcome.item));
  return nominateReply(paper.title, outcome);
}

/** One page of a queue list; a page past the end shows the last one (page 1 of an empty list). */
async function entriesOn(deps: CommandDeps, guildId: string, state: 'queued' | 'done', requested: number) {
  const on = (page: number) =>
    queueEntries(deps.db, guildId, state, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const first = await on(requested);
  const page = pageInRange(requested, first.total, PAGE_SIZE);
  return { page, ...(page === requested ? first : await on(page)) };
}

async function showPage(deps: CommandDeps, guildId: string, requested: number): Promise<Reply> {
  const { page, entries, hasMore, total } = await entriesOn(deps, guildId, 'queued', requested);
  const scheduled = page === 1 ? await queueEntries(deps.db, guildId, 'scheduled', { limit: 5, offset: 0 }) : undefined;
  const shown = await summariesToShow(
    deps.db,
    entries.map((e) => e.paper),
    'en',
  );
  const tldrs = new Map([...shown].map(([id, s]) => [id, s.tldr]));
  const reply = queuePageReply({
    page,
    pageSize: PAGE_SIZE,
    entries,
    hasMore: hasMore && page < PAGE_MAX,
    total,
    scheduled: scheduled?.entries ?? [],
    tldrs,
    pageId: (p) => CUSTOM_IDS.queuePage.encode({ page: p }),
  });
  return pastTheEnd(reply, requested, page);
}

async function historyPage(deps: CommandDeps, guildId: string, requested: number): Promise<Reply> {
  const { page, entries, hasMore, total } = await entriesOn(deps, guildId, 'done', requested);
  return historyPageReply({
    page,
    pageSize: PAGE_SIZE,
    entries,
    hasMore: hasMore && page < PAGE_MAX,
    total,
    pageId: (p) => CUSTOM_IDS.queueHistory.encode({ page: p }),
  });
}

/** Previous/Next on /queue show (`queue:page:<n>`) or /queue history (`queue:history:<n>`): anyone may page; the message is replaced. */
async function pressPage(
  deps: CommandDeps,
  guildId: string,
  action: 'page' | 'history',
  page: number,
): Promise<ComponentReply> {
  if (page < 1 || page > PAGE_MAX) return errorReply('That page button is broken. Run /queue show again.');
  const reply = action === 'page' ? await showPage(deps, guildId, page) : await historyPage(deps, guildId, page);
  return { ...reply, update: true };
}
