import type { CommandDeps, ComponentInput, ComponentReply } from '../../src/core/command.ts';
import { CUSTOM_IDS } from '../../src/core/custom-id.ts';
import { UserFacingError } from '../../src/core/errors.ts';
import { errorReply, untrustedText, type Reply } from '../../src/core/reply.ts';
import { pagerRow } from '../../src/core/views/pager.ts';
import { paperListReply } from '../../src/core/views/paper-list.ts';
import { correctionNotice } from '../../src/core/views/search-notice.ts';
import { searchPapers } from '../../src/services/search/search.ts';
import { loadSaved, saveExpiring } from '../../db/queries/app-state.ts';

export const PAGE_MAX = 50;

/** A search saved for its paging buttons: a query may be longer than a custom id can carry. */
interface SavedSearch {
  query: string;
  limit: number;
}
const saveSearch = (deps: CommandDeps, s: SavedSearch) =>
  saveExpiring(deps.db, 'search', `${s.limit}|${s.query}`, s, deps.now());

export interface SearchRequest {
  query: string;
  limit: number;
  page: number;
  /** Who searched: only they may press the paging buttons. */
  userId: string;
  /** The saved search, when paging one. */
  key?: string;
}

/**
 * One page of `/paper search` results. When there is more than one page, the query is saved
 * (app_state, kind `search`) and the reply gets Previous/Next buttons with custom ids
 * `paper:page:<callerUserId>:<stateKey>:<page>`.
 */
export async function searchPage(deps: CommandDeps, r: SearchRequest): Promise<Reply> {
  const { query, limit, page } = r;
  const words = query.trim().split(/\s+/);
  if (words.every((w) => w.startsWith('-')))
    throw new UserFacingError(
      `"${query.trim()}" only says what to leave out. Add a word to search for, e.g. query:grpo ${words[0]}`,
    );
  const { hits, hasMore, corrections = [] } = await searchPapers(deps.db, query, { limit, offset: (page - 1) * limit });
  const notice = correctionNotice(query, corrections);
  if (hits.length === 0) {
    // The query as typed, shown as text: a masked link in it is not a link from the bot.
    const typed = untrustedText(query);
    const msg =
      page > 1
        ? `No more results for "${typed}".`
        : `No papers match "${typed}". Try fewer or different words, or an arXiv id with /paper show.`;
    return errorReply(msg);
  }
  const from = (page - 1) * limit + 1;
  const more = hasMore && page < PAGE_MAX;
  const footer = `Results ${from}-${from + hits.length - 1}${more ? ` · Next ▶ or page:${page + 1} for more` : ''}`;
  const reply = paperListReply({ title: `Papers for "${untrustedText(query)}"`, papers: hits, startAt: from, footer });
  if (notice) reply.content = notice;
  if (page > 1 || more) {
    const key = r.key ?? (await saveSearch(deps, { query, limit }));
    reply.components = [pagerRow((p) => CUSTOM_IDS.paperPage.encode({ user: r.userId, key, page: p }), page, more)];
  }
  return reply;
}

/** A press of Previous/Next (`paper:page:<user>:<key>:<page>`): the same message, on another page. */
export async function pressPage(input: ComponentInput, deps: CommandDeps): Promise<ComponentReply> {
  const pressed = CUSTOM_IDS.paperPage.decode(input.customId);
  if (!pressed || pressed.page < 1 || pressed.page > PAGE_MAX)
    return errorReply('That page button is broken. Run /paper search again.');
  const { user: owner, key, page } = pressed;
  if (owner !== input.user.id)
    return errorReply(
      'Only the person who searched can page through these results. Run /paper search to get your own.',
    );
  const saved = await loadSaved<SavedSearch>(deps.db, 'search', key);
  if (!saved) return errorReply('These results have expired. Run /paper search again.');
  const reply = await searchPage(deps, { query: saved.query, limit: saved.limit, page, userId: owner, key });
  return reply.ephemeral ? reply : { ...reply, update: true };
}
