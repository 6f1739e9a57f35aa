import {
  optionsOf,
  type Command,
  type CommandDefinition,
  type CommandDeps,
  type ComponentReply,
} from '../src/core/command.ts';
import { CUSTOM_IDS } from '../src/core/custom-id.ts';
import { answerQuestion, ASK_K, retrieveSources } from '../src/services/ask/answer.ts';
import { papersInOrder } from '../db/queries/papers.ts';
import { UserFacingError } from '../src/core/errors.ts';
import { dayExample, parseDay } from '../src/core/calendar.ts';
import { errorReply, type Reply } from '../src/core/reply.ts';
import { TOPICS } from '../src/core/papers/topics.ts';
import { summariesToShow } from '../src/services/summarize/show.ts';
import { askReply, sourcesReply } from '../src/core/views/ask.ts';
import { loadSaved, saveExpiring, takeSlot } from '../db/queries/app-state.ts';

export const QUESTION_MAX = 500;

/** A question with its filters and the papers retrieved for it, for the follow-up buttons (a question is longer than a custom id). */
interface SavedAsk {
  question: string;
  since: string | null;
  topic: string | null;
  paperIds: number[];
}
const saveAsk = (deps: CommandDeps, a: SavedAsk) =>
  saveExpiring(deps.db, 'ask', JSON.stringify([a.question, a.since, a.topic, a.paperIds]), a, deps.now());
const loadAsk = (deps: CommandDeps, key: string) => loadSaved<SavedAsk>(deps.db, 'ask', key);

/** One question counted against the user's hourly limit (a fixed UTC-hour window). */
const takeAskSlot = (deps: CommandDeps, userId: string) => {
  const now = deps.now();
  return takeSlot(
    deps.db,
    'ask-rate',
    `${userId}:${now.toISOString().slice(0, 13)}`,
    deps.config.ask.ratePerHour,
    now,
    2 * 3_600_000,
  );
};

const definition = {
  name: 'ask',
  description: 'Ask a question; the answer comes only from stored papers, with citations',
  options: [
    {
      name: 'question',
      description: 'e.g. "which paper removes the length normalisation in GRPO\'s loss?"',
      type: 'string',
      required: true,
      minLength: 3,
      maxLength: QUESTION_MAX,
    },
    {
      name: 'since',
      description: 'Only papers published on or after this day (YYYY-MM-DD)',
      type: 'string',
      maxLength: 40,
    },
    {
      name: 'topic',
      description: 'Only papers of this topic',
      type: 'string',
      choices: TOPICS.map((t) => ({ name: t.label, value: t.slug })),
    },
  ],
} as const satisfies CommandDefinition;

/**
 * `/ask question [since] [topic]`: an answer written only from the most relevant stored papers,
 * citing them as [n]. Buttons `ask:sources:<key>` and `ask:more:<key>` read the question and the
 * retrieved paper ids saved under `ask:<key>` in app_state.
 */
export const ask: Command = {
  definition,
  slow: true,
  async execute(input, deps) {
    const o = optionsOf(definition, input);
    const question = o.question.trim();
    const since = o.since === undefined ? undefined : parseSince(o.since, deps.now());
    const { topic } = o;
    if (topic && !TOPICS.some((t) => t.slug === topic))
      throw new UserFacingError(`Unknown topic "${topic}". See /topics.`);
    if (!(await takeAskSlot(deps, input.user.id))) {
      return errorReply(
        deps.config.ask.ratePerHour === 0
          ? '/ask is turned off on this bot.'
          : `You have asked ${deps.config.ask.ratePerHour} question${deps.config.ask.ratePerHour === 1 ? '' : 's'} this hour, the most allowed. Try again after the hour turns, or use /paper search.`,
      );
    }
    const result = await answerQuestion(deps, { question, ...(since && { since }), ...(topic && { topic }) });
    const reply = askReply(result);
    if (result.papers.length === 0) return reply;
    const key = await saveAsk(deps, {
      question,
      since: since ?? null,
      topic: topic ?? null,
      paperIds: result.papers.map((p) => p.paper.id),
    });
    reply.components = [
      [
        { kind: 'action', customId: CUSTOM_IDS.askSources.encode({ key }), label: 'Show sources', style: 'secondary' },
        { kind: 'action', customId: CUSTOM_IDS.askMore.encode({ key }), label: 'More like this', style: 'secondary' },
      ],
    ];
    return reply;
  },
  async component(input, deps) {
    const sources = CUSTOM_IDS.askSources.decode(input.customId);
    if (sources) return pressSources(sources.key, deps);
    const more = CUSTOM_IDS.askMore.decode(input.customId);
    if (more) return pressMore(more.key, deps);
    return errorReply('That button no longer works. Run /ask again.');
  },
};

/** A `since` option: a real calendar day. */
export function parseSince(s: string, now: Date): string {
  const day = parseDay(s);
  if (!day)
    throw new UserFacingError(
      `\`since\` takes a day written YYYY-MM-DD, ${dayExample(now)}; "${s.slice(0, 40)}" is not one.`,
    );
  return day;
}

const expired = () => errorReply('This question has expired. Run /ask again.');

/** Every retrieved paper, numbered as in the answer, with its TL;DR. */
async function pressSources(key: string, deps: CommandDeps): Promise<ComponentReply> {
  const saved = await loadAsk(deps, key);
  if (!saved) return expired();
  const papers = await papersInOrder(deps.db, saved.paperIds);
  const shown = await summariesToShow(deps.db, papers, 'en');
  return sourcesReply(
    saved.question,
    papers.map((paper) => ({
      paper,
      source: {
        n: saved.paperIds.indexOf(paper.id) + 1,
        arxivId: paper.arxivId,
        title: paper.title,
        publishedOn: paper.publishedOn,
        families: paper.families,
        abstract: paper.abstract,
        tldr: shown.get(paper.id)?.tldr ?? null,
      },
    })),
  );
}

/** The next papers for the same question, after the ones the answer used. */
async function pressMore(key: string, deps: CommandDeps): Promise<Reply> {
  const saved = await loadAsk(deps, key);
  if (!saved) return expired();
  const more = (
    await retrieveSources(
      deps,
      {
        question: saved.question,
        ...(saved.since && { since: saved.since }),
        ...(saved.topic && { topic: saved.topic }),
      },
      { offset: ASK_K },
    )
  ).sources
    .filter((p) => !saved.paperIds.includes(p.paper.id))
    .map((p, i) => ({ ...p, source: { ...p.source, n: saved.paperIds.length + i + 1 } }));
  if (more.length === 0) return errorReply('No more stored papers match this question.');
  const reply = sourcesReply(saved.question, more);
  if (reply.embeds?.[0]) reply.embeds[0].title = reply.embeds[0].title!.replace(/^Sources for/, 'More like');
  return reply;
}
