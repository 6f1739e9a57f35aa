import { eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { familyJudgements, familyMarks, papers, type Paper } from '../../../../db/schema.ts';
import { runJob } from '../../../../jobs/index.ts';
import { judgeRelevanceJob } from '../../../../jobs/judge-relevance.ts';
import { buildDeps } from '../../../../src/app.ts';
import { loadConfig } from '../../../../src/core/config.ts';
import { GREY, judgePending } from '../../../../src/services/relevance/judge.ts';
import { JUDGE_VERSION } from '../../../../src/core/relevance/prompt.ts';
import { createTestDb } from '../../../helpers/db.ts';
import { startFakeAnthropic } from '../../../helpers/fake-anthropic.ts';

const NOW = new Date('2026-11-23T07:00:00Z');
const fake = await startFakeAnthropic({
  okAnswer: () => ({ in_family: true, reason: 'RLVR recipe for code agents.', families: ['GRPO', 'NotAFamily'] }),
});

describe('the relevance judge', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    t = await createTestDb();
  });
  beforeEach(async () => {
    fake.reset();
    await t.db.delete(familyMarks);
    await t.db.delete(familyJudgements);
    await t.db.delete(papers);
  });

  const deps = (env: Record<string, string> = {}) =>
    buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => NOW,
      config: loadConfig({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.base, ...env }),
    });
  let n = 0;
  const add = async (score: number, fields: Partial<typeof papers.$inferInsert> = {}): Promise<Paper> => {
    const arxivId = `2611.${String(20000 + ++n)}`;
    const [row] = await t.db
      .insert(papers)
      .values({
        arxivId,
        titleKey: `k${arxivId}`,
        title: `Paper ${arxivId}`,
        abstract: `We train a code agent ${arxivId} with outcome rewards.`,
        rulesFamily: score >= 0.5,
        rulesScore: score,
        firstSeenAt: new Date(NOW.getTime() - 3_600_000),
        indexed: false,
        ...fields,
      })
      .returning();
    return row!;
  };
  const reload = async (p: Paper) => (await t.db.select().from(papers).where(eq(papers.id, p.id)))[0]!;
  const userTurns = () => fake.messageRequests().map((r) => r.body.messages[0].content[0].text as string);

  it('reads only the papers the filter is unsure about, with the rule as a cached system prompt and the paper as data', async () => {
    const unsure = await add(0.35);
    const sure = await add((GREY.max + 1) / 2);
    const hopeless = await add(GREY.min / 2);
    const old = await add(0.4, { firstSeenAt: new Date('2026-10-01T00:00:00Z') });
    const stats = await judgePending(deps());
    expect(stats).toMatchObject({ candidates: 1, in: 1, out: 0, failed: 0, stopped: null });
    expect(userTurns()).toHaveLength(1);
    expect(userTurns()[0]).toContain(unsure.arxivId!);
    const body = fake.messageRequests()[0]!.body;
    expect(body.system[0]).toMatchObject({ type: 'text', cache_control: { type: 'ephemeral' } });
    expect(body.system[0].text).toContain('A paper is IN the family');
    expect(body.system[0].text.length / 4).toBeGreaterThan(4096); // long enough for Haiku 4.5 to cache it
    expect(body.messages[0].content[0].text).toMatch(/^<paper_data>\n\{"title":/);
    expect(body.output_config.format.type).toBe('json_schema');
    // The decision wins over the filter's verdict, with the judge's known family names only.
    expect(await reload(unsure)).toMatchObject({
      rulesFamily: false,
      judgeFamily: true,
      grpoFamily: true,
      familyScore: 0.75,
      indexed: true,
      families: ['GRPO'],
    });
    const [j] = await t.db.select().from(familyJudgements).where(eq(familyJudgements.paperId, unsure.id));
    expect(j).toMatchObject({
      judgeVersion: JUDGE_VERSION,
      status: 'ok',
      inFamily: true,
      reason: 'RLVR recipe for code agents.',
      model: 'claude-haiku-4-5',
    });
    for (const p of [sure, hopeless, old]) expect((await reload(p)).judgeFamily).toBeNull();
    // Judged once per version: a second run asks nothing.
    expect((await judgePending(deps())).candidates).toBe(0);
  });

  it('isolates failures: a rejected paper is recorded alone, an overloaded API leaves papers for the next run', async () => {
    const bad = await add(0.4);
    const good = await add(0.45);
    const busy = await add(0.5);
    fake.script(bad.arxivId!, [{ status: 400 }]);
    fake.script(busy.arxivId!, [{ status: 529 }, { status: 529 }, { status: 529 }, { status: 529 }]);
    const stats = await judgePending(deps({ LLM_CONCURRENCY: '1' }));
    expect(stats).toMatchObject({ in: 1, failed: 1, deferred: 1 });
    expect(await reload(good)).toMatchObject({ judgeFamily: true });
    expect((await reload(bad)).judgeFamily).toBeNull();
    expect((await t.db.select().from(familyJudgements).where(eq(familyJudgements.paperId, bad.id)))[0]).toMatchObject({
      status: 'failed',
    });
    expect(await t.db.select().from(familyJudgements).where(eq(familyJudgements.paperId, busy.id))).toEqual([]);
    expect(await judgePending(deps())).toMatchObject({ candidates: 1, in: 1 });
    expect(await reload(busy)).toMatchObject({ grpoFamily: true });
  });

  it('stops on the same 400 twice in a row (the request, not the papers) without recording any paper as failed', async () => {
    for (let i = 0; i < 4; i++) await add(0.4);
    fake.otherwise = { status: 400, message: 'system.0.cache_control.ttl: unexpected value' };
    const stats = await judgePending(deps({ LLM_CONCURRENCY: '1' }));
    expect(stats).toMatchObject({
      stopped: 'systematic',
      failed: 0,
      deferred: 2,
      stopReason: expect.stringMatching(/rejected 2 requests in a row the same way/),
    });
    expect(fake.messageRequests()).toHaveLength(2);
    expect(await t.db.select().from(familyJudgements)).toEqual([]);
  });

  it('keeps within the daily budget and starts no call that could pass it', async () => {
    await add(0.4);
    expect(await judgePending(deps({ LLM_DAILY_BUDGET_USD: '0.001' }))).toMatchObject({
      stopped: 'budget',
      overBudget: 1,
    });
    expect(fake.messageRequests()).toEqual([]);
  });

  it('stops on a refused key without failing the job, so the summaries after it still run', async () => {
    const p = await add(0.4);
    fake.script(p.arxivId!, [{ status: 401 }]);
    const outcome = await runJob(judgeRelevanceJob, deps());
    expect(outcome).toMatchObject({
      status: 'ok',
      stats: { stopped: 'config', stopReason: '401 authentication_error: scripted 401' },
    });
    expect((await reload(p)).judgeFamily).toBeNull();
  });

  it('does nothing without a key, and never reads a paper a moderator marked', async () => {
    const marked = await add(0.4, { familyMark: false });
    expect(await judgePending(deps({ ANTHROPIC_API_KEY: '' }))).toMatchObject({ candidates: 0 });
    expect(await judgePending(deps())).toMatchObject({ candidates: 0 });
    expect(await reload(marked)).toMatchObject({ grpoFamily: false });
  });
});
