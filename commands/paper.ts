import {
  optionsOf,
  type Choice,
  type Command,
  type CommandDefinition,
  type CommandDeps,
  type CommandInput,
} from '../src/core/command.ts';
import { UserFacingError } from '../src/core/errors.ts';
import { stripUnsafeChars, type Reply } from '../src/core/reply.ts';
import { paperCardReply } from '../src/core/views/paper-card.ts';
import { paperListReply } from '../src/core/views/paper-list.ts';
import { TOPICS } from '../src/core/papers/topics.ts';
import type { Paper } from '../db/schema.ts';
import { getPaperById, getPaperDetail, latestPapers } from '../db/queries/papers.ts';
import { searchPapers } from '../src/services/search/search.ts';
import { familiesOfPaper } from '../db/queries/families.ts';
import { FAMILIES, familyRef } from '../src/core/papers/families.ts';
import { summaryToShow } from '../src/services/summarize/show.ts';
import { PAGE_MAX, pressPage, searchPage } from './paper/search.ts';
import { pressRandom, randomPaper } from './paper/random.ts';
import { resolvePaper } from './paper/resolve.ts';
import { markPaper, type MarkChoice } from './paper/mark.ts';
import { citePaper } from './paper/cite.ts';
import { trainingOfPaper } from '../src/services/summarize/settings.ts';
import { evidenceReply, recipeReply } from '../src/core/views/training.ts';
import { CUSTOM_IDS } from '../src/core/custom-id.ts';

export const QUERY_MAX = 300;

/** The paper a subcommand is about, as /paper show and /paper cite take it. */
const PAPER_ID = {
  name: 'id',
  description: 'arXiv id, arXiv/Hugging Face link, title, or a family name (GSPO)',
  type: 'string',
  required: true,
  autocomplete: true,
  maxLength: QUERY_MAX,
} as const;

const definition = {
  name: 'paper',
  description: 'Find GRPO-family papers in the stored corpus',
  subcommands: [
    {
      name: 'search',
      description: 'Search titles, abstracts and notes (English or Chinese)',
      options: [
        {
          name: 'query',
          description: 'What to look for, e.g. "sequence-level clipping" or 熵',
          type: 'string',
          required: true,
          minLength: 1,
          maxLength: QUERY_MAX,
        },
        { name: 'limit', description: 'How many results (1-10)', type: 'integer', minValue: 1, maxValue: 10 },
        { name: 'page', description: 'Which page of results', type: 'integer', minValue: 1, maxValue: PAGE_MAX },
      ],
    },
    {
      name: 'show',
      description: 'Show one paper: summary, links, notes and citing papers',
      options: [PAPER_ID],
    },
    {
      name: 'cite',
      description: 'The BibTeX entry of one paper (arXiv eprint fields, the venue when known)',
      options: [PAPER_ID],
    },
    {
      name: 'latest',
      description: 'The newest GRPO-family papers in the corpus',
      options: [
        { name: 'count', description: 'How many (1-10)', type: 'integer', minValue: 1, maxValue: 10 },
        { name: 'all', description: 'Include papers outside the GRPO family', type: 'boolean' },
      ],
    },
    {
      name: 'random',
      description: 'A GRPO-family paper worth reading, picked at random',
      options: [
        {
          name: 'topic',
          description: 'Only from this topic',
          type: 'string',
          choices: TOPICS.map((t) => ({ name: t.label, value: t.slug })),
        },
      ],
    },
    {
      name: 'mark',
      description: 'Moderators: correct the family filter for one paper (wins everywhere; auto takes it back)',
      options: [
        {
          name: 'id',
          description: 'arXiv id, arXiv/Hugging Face link, or title',
          type: 'string',
          required: true,
          autocomplete: true,
          maxLength: QUERY_MAX,
        },
        {
          name: 'family',
          description: 'in or out of the GRPO family, or auto to remove your mark',
          type: 'string',
          required: true,
          choices: [
            { name: 'in', value: 'in' },
            { name: 'out', value: 'out' },
            { name: 'auto (remove the mark)', value: 'auto' },
          ],
        },
        {
          name: 'reason',
          description: 'Why, shown on the card and exported with the label',
          type: 'string',
          maxLength: 300,
        },
      ],
    },
  ],
} as const satisfies CommandDefinition;

/** `/paper search|show|cite|latest|random|mark`: asking the stored corpus for papers. */
export const paper: Command = {
  definition,
  async execute(input, deps) {
    switch (input.subcommand) {
      case 'search':
        return search(input, deps);
      case 'show':
        return show(input, deps);
      case 'cite':
        return citePaper(deps, await resolvePaper(deps, optionsOf(definition, input, 'cite').id));
      case 'latest':
        return latest(input, deps);
      case 'random':
        return randomPaper(deps, input.user.id, optionsOf(definition, input, 'random').topic);
      case 'mark': {
        const o = optionsOf(definition, input, 'mark');
        return markPaper(input, deps, await resolvePaper(deps, o.id), o.family as MarkChoice, o.reason);
      }
      default:
        throw new UserFacingError(
          'Use /paper search, /paper show, /paper cite, /paper latest, /paper random or /paper mark.',
        );
    }
  },
  async component(input, deps) {
    if (input.customId.startsWith('paper:page:')) return pressPage(input, deps);
    if (input.customId.startsWith('paper:random:')) return pressRandom(input, deps);
    const recipe = CUSTOM_IDS.paperRecipe.decode(input.customId);
    const evidence = CUSTOM_IDS.paperEvidence.decode(input.customId);
    const id = recipe?.paper ?? evidence?.paper;
    if (id !== undefined) {
      const p = await getPaperById(deps.db, id);
      if (!p) throw new UserFacingError('That button names no paper in the corpus. Run /paper show again.');
      const { settings } = await trainingOfPaper(deps.db, p.id);
      return recipe ? recipeReply(p, settings) : evidenceReply(p, settings);
    }
    throw new UserFacingError('That button no longer works. Run the command again.');
  },
  async autocomplete(_input, focused, deps) {
    return paperChoices(deps, focused.value);
  },
};

/** Autocomplete for any option naming a paper (`/paper show id`, `/queue vote paper`): ids and titles that match what was typed. */
export async function paperChoices(deps: CommandDeps, typed: string): Promise<Choice[]> {
  if (typed.trim().length < 2) return [];
  const { hits } = await searchPapers(deps.db, typed, { limit: 10, prefix: true });
  return hits.map((h) => ({
    name: stripUnsafeChars(`${h.arxivId ? `${h.arxivId} · ` : ''}${h.title}`).slice(0, 100),
    value: (h.arxivId ?? h.title).slice(0, 100),
  }));
}

async function search(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  const { query, limit = 5, page = 1 } = optionsOf(definition, input, 'search');
  return searchPage(deps, { query, limit, page, userId: input.user.id });
}

async function show(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  return loadPaperCard(deps, await resolvePaper(deps, optionsOf(definition, input, 'show').id));
}

/** The card of a paper, as `/paper show` and `grpo-digest show` print it: families it builds on, the LLM summary when one exists. */
export async function loadPaperCard(deps: CommandDeps, found: Paper): Promise<Reply> {
  const [detail, related, shown, training] = await Promise.all([
    getPaperDetail(deps.db, found),
    familiesOfPaper(deps.db, found.id, FAMILIES.map(familyRef)),
    summaryToShow(deps.db, found, 'en'),
    trainingOfPaper(deps.db, found.id),
  ]);
  // Only an LLM summary adds to the card: the extractive fallback would repeat the abstract shown above it.
  const summary =
    shown.source === 'llm'
      ? { tldr: shown.tldr, grpoDelta: shown.grpoDelta as Record<string, string> | null, model: shown.model }
      : undefined;
  return paperCardReply(detail, {
    buildsOn: related.members,
    cites: related.cites,
    settings: training.settings,
    ...(summary && { summary }),
  });
}

async function latest(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  const { count = 5, all = false } = optionsOf(definition, input, 'latest');
  const rows = await latestPapers(deps.db, count, { all });
  if (rows.length === 0)
    return { content: 'The corpus is empty. Run `grpo-digest seed` or wait for the next poll.', ephemeral: true };
  const what = all ? 'paper' : 'GRPO-family paper';
  return paperListReply({
    title: rows.length === 1 ? `The latest ${what}` : `The latest ${rows.length} ${what}s`,
    papers: rows,
  });
}
