import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { family } from '../../commands/family.ts';
import { paper } from '../../commands/paper.ts';
import { status } from '../../commands/status.ts';
import { topics } from '../../commands/topics.ts';
import { trends } from '../../commands/trends.ts';
import { summarizePending } from '../../jobs/summarize-pending.ts';
import { describeSummaryRun } from '../../src/cli/summarize.ts';
import { papers } from '../../db/schema.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import type { Command } from '../../src/core/command.ts';
import { useSeededDb } from '../helpers/seeded.ts';
import { commandInput, replyText } from './helpers.ts';

/**
 * "The GRPO family" is one number: /topics, /family list, /status, /trends and the poll's summary
 * line give the same count (a command counting a part of it says which part, of how many), and a
 * moderator's mark changes all of them at once.
 */
describe('the GRPO family count', () => {
  const seeded = useSeededDb();
  const text = async (c: Command, sub?: string, options: Record<string, string | number> = {}) =>
    replyText(await runCommand(c, commandInput(sub, options), seeded().deps));
  const first = (s: string, re: RegExp) => Number(re.exec(s)?.[1] ?? NaN);

  async function counts(): Promise<Record<string, number>> {
    const { deps } = seeded();
    const summaries = describeSummaryRun({
      status: 'ok',
      stats: await summarizePending({ ...deps, sql: seeded().sql }),
    });
    return {
      topics: first(await text(topics), /(\d+) GRPO-family papers in the corpus/),
      familyList: first(await text(family, 'list'), /(\d+) papers in the GRPO family/),
      status: first(await text(status), /(\d+) papers in the GRPO family/),
      statusTexts: first(await text(status), /Full texts \(the \d+ of the (\d+) GRPO-family papers/),
      trends: first(await text(trends, undefined, { weeks: 104 }), /of the (\d+) GRPO-family papers/),
      poll: first(summaries, /of the (\d+) GRPO-family papers/),
    };
  }

  const inFamily = async () =>
    Number(
      (
        await seeded()
          .db.select({ n: sql<number>`count(*)::int` })
          .from(papers)
          .where(eq(papers.grpoFamily, true))
      )[0]!.n,
    );

  it('is the same in every command, and a part of it is labelled with the whole', async () => {
    const n = await inFamily();
    expect(n).toBeGreaterThan(100);
    const c = await counts();
    expect(c).toEqual({ topics: n, familyList: n, status: n, statusTexts: n, trends: n, poll: n });
    // /trends counts a part (the dated weeks) and says of how many; the parts add up to the whole.
    const t = await text(trends, undefined, { weeks: 104 });
    const shown = first(t, /(\d+) of the \d+ GRPO-family papers are in these 104 weeks/);
    const monthOnly = first(t, /(\d+) (?:is|are) dated only by month/) || 0;
    const outside = first(t, /the other (\d+) (?:is|are) dated outside them/) || 0;
    expect(shown + monthOnly + outside).toBe(n);
  });

  it('drops by one everywhere when a moderator marks a paper out, and its card loses its family tags', async () => {
    const { db, deps } = seeded();
    const [target] = await db
      .select({ arxivId: papers.arxivId })
      .from(papers)
      .where(sql`${papers.grpoFamily} and 'GRPO' = any(${papers.families}) and ${papers.arxivId} is not null`)
      .limit(1);
    const before = await counts();
    const cardBefore = await text(paper, 'show', { id: target!.arxivId! });
    expect(cardBefore).toMatch(/Families · topics\n[^\n]*GRPO/);
    await runCommand(
      paper,
      commandInput('mark', { id: target!.arxivId!, family: 'out', reason: 'test' }, { canManage: true }),
      deps,
    );
    const after = await counts();
    for (const k of Object.keys(before)) expect(after[k], k).toBe(before[k]! - 1);
    const cardAfter = await text(paper, 'show', { id: target!.arxivId! });
    expect(cardAfter).not.toMatch(/Families · topics\n[^\n]*GRPO/);
    expect(cardAfter).not.toContain('Why these families');
    expect(cardAfter).not.toContain('Reproduce with TRL');
    await runCommand(paper, commandInput('mark', { id: target!.arxivId!, family: 'auto' }, { canManage: true }), deps);
    expect(await counts()).toEqual(before);
  });
});
