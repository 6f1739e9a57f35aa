import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { paper } from '../../commands/paper.ts';
import { deliveries, papers } from '../../db/schema.ts';
import { marksWithPapers } from '../../db/queries/marks.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import { createTestDb } from '../helpers/db.ts';
import { commandDeps, commandInput, replyText } from './helpers.ts';

describe('/paper mark', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const clock = new Date('2026-11-23T09:00:00Z');
  const deps = () => commandDeps(t.db, () => clock);
  const mark = (id: string, family: string, extra: Record<string, string> = {}, canManage = true) =>
    runCommand(
      paper,
      commandInput('mark', { id, family, ...extra }, { canManage, user: { id: '42', name: 'Mod Erator' } }),
      deps(),
    );
  const row = async (arxivId: string) => (await t.db.select().from(papers).where(eq(papers.arxivId, arxivId)))[0]!;

  beforeAll(async () => {
    t = await createTestDb();
    await t.db.insert(papers).values([
      {
        arxivId: '2611.50001',
        titleKey: 'a',
        title: 'An agent trained with outcome rewards',
        abstract: 'We train a terminal agent with RL.',
        rulesFamily: false,
        rulesScore: 0.3,
        newsAt: new Date('2026-11-21T06:20:00Z'),
      },
      {
        arxivId: '2611.50002',
        titleKey: 'b',
        title: 'Offline RL for robots',
        abstract: 'Offline RL for quadrupeds.',
        rulesFamily: true,
        rulesScore: 0.6,
        indexed: true,
      },
    ]);
  });

  it('lets a moderator mark a paper in: it wins over the filter, shows on the card and renews the news once', async () => {
    const r = await mark('2611.50001', 'in', { reason: 'agent RL with outcome rewards' });
    expect(r.ephemeral).toBe(true);
    expect(r.content).toMatch(
      /Marked \*\*An agent trained with outcome rewards\*\* in the GRPO family\. It goes into the next digest/,
    );
    expect(await row('2611.50001')).toMatchObject({
      familyMark: true,
      grpoFamily: true,
      familyScore: 1,
      indexed: true,
      newsAt: clock,
    });
    const card = replyText(await runCommand(paper, commandInput('show', { id: '2611.50001' }), deps()));
    expect(card).toContain('In, marked by Mod Erator on 2026-11-23: agent RL with outcome rewards');
  });

  it('marks a paper out everywhere, and auto takes the mark back', async () => {
    expect((await mark('2611.50002', 'out')).content).toMatch(/leaves digests, subscriptions and \/family counts/);
    expect(await row('2611.50002')).toMatchObject({ grpoFamily: false, familyScore: 0 });
    expect((await mark('2611.50002', 'auto')).content).toMatch(
      /Removed the mark .* in the family \(the filter\) again/,
    );
    expect(await row('2611.50002')).toMatchObject({ familyMark: null, grpoFamily: true });
  });

  it('does not renew the news of a paper a digest already carried', async () => {
    const [p] = await t.db
      .insert(papers)
      .values({
        arxivId: '2611.50003',
        titleKey: 'c',
        title: 'Posted paper',
        rulesFamily: false,
        rulesScore: 0.2,
        newsAt: new Date('2026-11-20T06:00:00Z'),
      })
      .returning();
    await t.db.insert(deliveries).values({
      channelId: 'c1',
      digestKey: '2026-11-20',
      part: 0,
      nonce: 'n',
      status: 'sent',
      payload: {},
      paperIds: [p!.id],
    });
    await mark('2611.50003', 'in');
    expect((await row('2611.50003')).newsAt).toEqual(new Date('2026-11-20T06:00:00Z'));
  });

  it('is refused to members without Manage Server or the moderator role', async () => {
    expect((await mark('2611.50001', 'out', {}, false)).content).toMatch(/Only members with Manage Server/);
    expect(await row('2611.50001')).toMatchObject({ familyMark: true });
  });

  it('exports every mark as a labelled line in the evaluation format', async () => {
    const lines = (await marksWithPapers(t.db)).map((m) => ({
      id: m.arxivId,
      label: m.inFamily ? 'in' : 'out',
      reason: m.reason,
    }));
    expect(lines).toEqual(
      expect.arrayContaining([
        { id: '2611.50001', label: 'in', reason: 'agent RL with outcome rewards' },
        { id: '2611.50003', label: 'in', reason: null },
      ]),
    );
  });
});
