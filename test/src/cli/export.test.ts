import { parse } from '@retorquere/bibtex-parser';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { papers, queueItems } from '../../../db/schema.ts';
import { cli } from '../../helpers/cli.ts';
import { createTestDb } from '../../helpers/db.ts';

/** Every entry of a .bib output, parsed by a real BibTeX parser that must find no error. */
function entriesOf(stdout: string) {
  const lib = parse(stdout, { english: false });
  expect(lib.errors).toEqual([]);
  return lib.entries;
}

describe('grpo-digest export --format bibtex', { timeout: 90_000 }, () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let env: Record<string, string>;
  const idOf = async (arxivId: string) =>
    (await t.db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, arxivId)))[0]!.id;

  beforeAll(async () => {
    t = await createTestDb({ seeded: true });
    env = { DATABASE_URL: t.url };
  });

  it('writes every GRPO-family paper once, with unique keys, and nothing outside the family', async () => {
    // A feed's hostile paper in the family: its text stays in its fields and the rest of the file parses.
    await t.db.insert(papers).values({
      arxivId: '2511.05555',
      titleKey: 'hostile',
      title: 'GRPO }\n@misc{evil, title={x}} % \\ `',
      authors: ['Mallory} and {Eve'],
      categories: ['cs.LG'],
      publishedOn: '2025-11-07',
      rulesFamily: true,
    });
    const r = await cli(['export', '--format', 'bibtex'], env);
    expect(r.code).toBe(0);
    const entries = entriesOf(r.stdout);
    const [family] = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from papers where coalesce(grpo_family, false)`,
    );
    expect(entries).toHaveLength(Number(family!.n));
    expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
    expect(entries.find((e) => e.fields.eprint === '2507.18071')).toMatchObject({
      key: 'groupsequence2025',
      fields: { title: 'Group Sequence Policy Optimization' },
    });
    expect(entries.find((e) => e.fields.eprint === '2511.05555')).toMatchObject({
      key: 'eve2025grpo',
      fields: {
        title: expect.stringMatching(/^GRPO }? ?@misc\{evil, title=\{x\}\} % \\ ˋ$/),
        author: [{ name: 'Mallory} and {Eve' }],
      },
    });
    expect(entries.some((e) => e.key === 'evil')).toBe(false);
    const dated = entries.map((e) => e.fields.year ?? '9999');
    expect(dated).toEqual([...dated].sort());
  });

  it("writes one family's papers with --family, its defining paper included", async () => {
    const r = await cli(['export', '--format', 'bibtex', '--family', 'gspo'], env);
    expect(r.code).toBe(0);
    const entries = entriesOf(r.stdout);
    expect(entries.map((e) => e.fields.eprint)).toContain('2507.18071');
    const whole = entriesOf((await cli(['export', '--format', 'bibtex'], env)).stdout);
    expect(entries.length).toBeLessThan(whole.length);
  });

  it("writes a server's queue with --queue and what it read with --history, and asks which server when several have one", async () => {
    const [read, queued, top] = await Promise.all(['2507.18071', '2503.23829', '2504.16084'].map(idOf));
    await t.db.insert(queueItems).values([
      { guildId: 'g1', paperId: read!, nominatedBy: 'u1', status: 'done', doneAt: new Date('2025-11-20') },
      { guildId: 'g1', paperId: queued!, nominatedBy: 'u1', status: 'queued' },
      { guildId: 'g1', paperId: top!, nominatedBy: 'u1', status: 'scheduled', scheduledFor: '2025-12-01' },
    ]);
    const queue = await cli(['export', '--format', 'bibtex', '--queue'], env);
    expect(entriesOf(queue.stdout).map((e) => e.fields.eprint)).toEqual(['2504.16084', '2503.23829']);
    const history = await cli(['export', '--format', 'bibtex', '--history'], env);
    expect(entriesOf(history.stdout).map((e) => e.fields.eprint)).toEqual(['2507.18071']);

    await t.db.insert(queueItems).values({ guildId: 'g2', paperId: read!, nominatedBy: 'u2', status: 'queued' });
    const which = await cli(['export', '--format', 'bibtex', '--history'], env);
    expect(which).toMatchObject({ code: 2, stdout: '' });
    expect(which.stderr).toMatch(/2 servers have a reading group \(g1, g2\): add --guild <id>/);
    const g2 = await cli(['export', '--format', 'bibtex', '--queue', '--guild', 'g2'], env);
    expect(entriesOf(g2.stdout).map((e) => e.fields.eprint)).toEqual(['2507.18071']);
    const none = await cli(['export', '--format', 'bibtex', '--history', '--guild', 'g2'], env);
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toMatch(/has read nothing yet/);
  });

  it('refuses a subset without --format bibtex, an unknown family and two subsets at once, before opening the database', async () => {
    const offline = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    for (const [args, said] of [
      [['export', '--family', 'GSPO'], /add --format bibtex/],
      [['export', '--format', 'bibtex', '--family', 'NoSuchPO'], /No family is called "NoSuchPO"\. Families: GRPO, /],
      [['export', '--format', 'bibtex', '--queue', '--family', 'GSPO'], /cannot be used with option '--family/],
      [['export', '--format', 'bibtex', '--guild', 'g1'], /add --queue or --history/],
    ] as const) {
      const r = await cli([...args], offline);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(r.stderr).toMatch(said);
    }
  });
});
