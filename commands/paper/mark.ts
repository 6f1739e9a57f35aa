import type { CommandDeps, CommandInput } from '../../src/core/command.ts';
import { UserFacingError } from '../../src/core/errors.ts';
import type { Reply } from '../../src/core/reply.ts';
import { boldTitle } from '../../src/core/views/queue.ts';
import { getPaperById } from '../../db/queries/papers.ts';
import { clearMark, setMark, wasPosted } from '../../db/queries/marks.ts';
import type { Paper } from '../../db/schema.ts';

export type MarkChoice = 'in' | 'out' | 'auto';

/**
 * `/paper mark id family:in|out|auto [reason]`: a moderator corrects the family filter for one
 * paper. The mark wins over the filter and the LLM judge everywhere (digests, subscriptions, search,
 * /family); `auto` takes it back. A paper marked in that was news but never posted becomes news
 * again, so the next digest carries it once.
 */
export async function markPaper(
  input: CommandInput,
  deps: CommandDeps,
  paper: Paper,
  choice: MarkChoice,
  reason: string | undefined,
): Promise<Reply> {
  if (!input.canManage)
    throw new UserFacingError('Only members with Manage Server (or the moderator role) can correct the family filter.');
  const title = boldTitle(paper.title);
  const now = deps.now();
  if (choice === 'auto') {
    const removed = await clearMark(deps.db, paper.id, now);
    const after = (await getPaperById(deps.db, paper.id))!;
    const verdict = `${after.grpoFamily ? 'in' : 'out of'} the family (${after.judgeFamily !== null ? 'the LLM judge' : 'the filter'})`;
    return {
      content: removed
        ? `Removed the mark on ${title}: it is ${verdict} again.`
        : `${title} had no mark; it is ${verdict}.`,
      ephemeral: true,
    };
  }
  const inFamily = choice === 'in';
  const renewNews = inFamily && !paper.grpoFamily && paper.newsAt !== null && !(await wasPosted(deps.db, paper.id));
  await setMark(
    deps.db,
    {
      paperId: paper.id,
      inFamily,
      reason: reason?.trim() || null,
      setBy: input.user.id,
      setByName: input.user.name,
      guildId: input.guildId ?? null,
    },
    now,
    { renewNews },
  );
  const effect = inFamily
    ? `${renewNews ? ' It goes into the next digest and to matching subscribers.' : ''} It now counts as GRPO-family in digests, subscriptions, search and /family.`
    : ' It leaves digests, subscriptions and /family counts.';
  return {
    content: `Marked ${title} ${inFamily ? 'in' : 'out of'} the GRPO family.${effect} /paper mark family:auto takes it back.`,
    ephemeral: true,
  };
}
