import type { Command, CommandDeps, CommandInput } from '../src/command.ts';
import { UserFacingError } from '../src/errors.ts';
import type { Reply } from '../src/reply.ts';
import { paperCardReply } from '../src/views/paper-card.ts';
import { paperListReply } from '../src/views/paper-list.ts';
import { getPaperDetail, latestPapers, lookupPaper } from '../db/queries/papers.ts';
import { searchPapers } from '../db/queries/search.ts';

export const QUERY_MAX = 300;

/** `/paper search|show|latest`: asking the stored corpus for papers. */
export const paper: Command = {
  definition: {
    name: 'paper',
    description: 'Find GRPO-family papers in the stored corpus',
    subcommands: [
      {
        name: 'search',
        description: 'Search titles, abstracts and notes (English or Chinese)',
        options: [
          { name: 'query', description: 'What to look for, e.g. "sequence-level clipping" or 熵', type: 'string', required: true, minLength: 1, maxLength: QUERY_MAX },
          { name: 'limit', description: 'How many results (1-10)', type: 'integer', minValue: 1, maxValue: 10 },
          { name: 'page', description: 'Which page of results', type: 'integer', minValue: 1, maxValue: 50 },
        ],
      },
      {
        name: 'show',
        description: 'Show one paper: summary, links, notes and citing papers',
        options: [{ name: 'id', description: 'arXiv id, arXiv/Hugging Face link, or title', type: 'string', required: true, autocomplete: true, maxLength: QUERY_MAX }],
      },
      {
        name: 'latest',
        description: 'The newest papers in the corpus',
        options: [{ name: 'count', description: 'How many (1-10)', type: 'integer', minValue: 1, maxValue: 10 }],
      },
    ],
  },
  async execute(input, deps) {
    switch (input.subcommand) {
      case 'search':
        return search(input, deps);
      case 'show':
        return show(input, deps);
      case 'latest':
        return latest(input, deps);
      default:
        throw new UserFacingError('Use /paper search, /paper show or /paper latest.');
    }
  },
  async autocomplete(_input, focused, deps) {
    if (focused.value.trim().length < 2) return [];
    const { hits } = await searchPapers(deps.db, focused.value, { limit: 10 });
    return hits.map((h) => ({
      name: `${h.arxivId ? `${h.arxivId} · ` : ''}${h.title}`.slice(0, 100),
      value: (h.arxivId ?? h.title).slice(0, 100),
    }));
  },
};

async function search(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  const query = String(input.options.query);
  const limit = Number(input.options.limit ?? 5);
  const page = Number(input.options.page ?? 1);
  const { hits, hasMore } = await searchPapers(deps.db, query, { limit, offset: (page - 1) * limit });
  if (hits.length === 0) {
    const msg = page > 1 ? `No more results for "${query}".` : `No papers match "${query}". Try fewer or different words, or an arXiv id with /paper show.`;
    return { content: msg, ephemeral: true };
  }
  const from = (page - 1) * limit + 1;
  const footer = hasMore ? `Results ${from}-${from + hits.length - 1} · next page: page:${page + 1}` : `Results ${from}-${from + hits.length - 1}`;
  return paperListReply({ title: `Papers for "${query}"`, papers: hits, startAt: from, footer });
}

async function show(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  const ref = String(input.options.id);
  const found = await lookupPaper(deps.db, ref);
  if (!found.paper) {
    const why = {
      'malformed-id': `"${ref}" is not a valid arXiv id. Use one like 2507.18071 (a version such as v2 is fine), a link, or a title.`,
      'unknown-id': `arXiv ${found.id ?? ref} is not in the corpus yet. Try /paper search with words from its title.`,
      'no-title-match': `No paper titled "${ref}". Try /paper search query:${ref.slice(0, 60)}`,
    }[found.reason];
    throw new UserFacingError(why);
  }
  return paperCardReply(await getPaperDetail(deps.db, found.paper));
}

async function latest(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  const count = Number(input.options.count ?? 5);
  const rows = await latestPapers(deps.db, count);
  if (rows.length === 0) return { content: 'The corpus is empty. Run `grpo-digest seed` or wait for the next poll.', ephemeral: true };
  return paperListReply({ title: `Latest ${rows.length} papers`, papers: rows });
}
