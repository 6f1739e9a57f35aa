import pino from 'pino';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spendToday } from '../../db/queries/spend.ts';
import { failedSummaryCounts, getPendingBatch, setPendingBatch } from '../../db/queries/summaries.ts';
import { papers, summaries } from '../../db/schema.ts';
import { runJob } from '../../jobs/index.ts';
import { summarizePending, summarizePendingJob } from '../../jobs/summarize-pending.ts';
import { buildDeps } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/core/config.ts';
import { PROMPT_VERSION } from '../../src/services/summarize/schema.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.ts';
import { NOW, useSummaryWorld } from '../helpers/summarize-world.ts';

/** The summariser against an API that misbehaves: what the run reports and what is stored. */
let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
beforeEach(() => fake.reset());

const hourLater = (h: number) => new Date(NOW.getTime() + h * 3_600_000);

describe('summarize-pending: an API that hangs, drops the connection or is down', () => {
  const w = useSummaryWorld(() => fake);
  const quick = { LLM_TIMEOUT_MS: '300', LLM_CONCURRENCY: '1' };

  it('gives up on a call that never answers (before or during its body) within LLM_TIMEOUT_MS, and leaves the paper pending', async () => {
    const [a, b] = [await w.addPaper(), await w.addPaper()];
    fake.script(a.arxivId!, Array(6).fill('hang'));
    fake.script(b.arxivId!, Array(6).fill('hang-body'));
    expect(await summarizePending(w.deps(quick))).toMatchObject({ ok: 0, failed: 0, deferred: 2, stopped: null });
    expect(await w.summary(a)).toBeUndefined();
    expect(await w.summary(b)).toBeUndefined();
    // The API is back: the next run summarises both.
    fake.reset();
    expect(await summarizePending(w.deps(quick))).toMatchObject({ pending: 2, ok: 2 });
  });

  it("treats a response cut off mid-body as the API's failure, not the paper's", async () => {
    await w.db().db.delete(papers);
    const p = await w.addPaper();
    fake.script(p.arxivId!, ['truncated']);
    expect(await summarizePending(w.deps(quick))).toMatchObject({ ok: 0, deferred: 1 });
    expect(await w.summary(p)).toBeUndefined();
    expect(await summarizePending(w.deps(quick))).toMatchObject({ ok: 1 });
  });

  it('stops starting calls after three papers in a row find the API down (529, 500), leaving the rest pending', async () => {
    await w.db().db.delete(papers);
    for (let i = 0; i < 5; i++) await w.addPaper();
    fake.otherwise = { status: 529 };
    const stats = await summarizePending(w.deps(quick));
    expect(stats).toMatchObject({
      ok: 0,
      failed: 0,
      deferred: 3,
      stopped: 'api-unavailable',
      stopReason: expect.stringMatching(/529 overloaded_error/),
    });
    expect(fake.messageRequests()).toHaveLength(3 * 4); // three papers, each tried by the client four times
    expect(await w.db().db.select().from(summaries)).toEqual([]);
    fake.reset();
    fake.otherwise = { status: 500 };
    expect(await runJob(summarizePendingJob, w.deps(quick))).toMatchObject({
      status: 'ok',
      stats: { stopped: 'api-unavailable', deferred: 3 },
    });
    fake.otherwise = 'ok';
    expect(await summarizePending(w.deps(quick))).toMatchObject({ pending: 5, ok: 5 });
  });
});

describe('summarize-pending: a problem every request shares', () => {
  const w = useSummaryWorld(() => fake);
  const one = { LLM_CONCURRENCY: '1' };

  it('stops at the second identical 400 without marking any paper failed, then summarises them all once it is fixed', async () => {
    for (let i = 0; i < 6; i++) await w.addPaper();
    fake.otherwise = { status: 400, message: 'messages.0.content.0: unexpected field "citations_v2"' };
    const outcome = await runJob(summarizePendingJob, w.deps(one));
    expect(outcome).toMatchObject({ status: 'failed' });
    const error = (outcome as { error: string }).error;
    expect(error).toMatch(
      /^Summaries stopped: the API rejected 2 requests in a row the same way: 400 invalid_request_error: messages\.0\.content\.0: unexpected field/,
    );
    expect(error).toMatch(/no paper was marked failed/);
    expect(fake.messageRequests()).toHaveLength(2);
    expect(await w.db().db.select().from(summaries)).toEqual([]);
    fake.otherwise = 'ok';
    expect(await summarizePending(w.deps(one))).toMatchObject({ pending: 6, ok: 6, failed: 0 });
  });

  it('stops at the first 400 about the model or output_config, and at a 404 for the model', async () => {
    await w.db().db.delete(papers);
    const p = await w.addPaper();
    await w.addPaper();
    fake.otherwise = { status: 400, message: "'claude-haiku-4-5' does not support output_config.format" };
    expect(await runJob(summarizePendingJob, w.deps(one))).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(
        /^Summaries stopped: the model API refuses the configuration \(400 invalid_request_error: 'claude-haiku-4-5' does not support output_config/,
      ),
    });
    expect(fake.messageRequests()).toHaveLength(1);
    fake.reset();
    fake.otherwise = { status: 404, message: 'model: claude-haiku-4-5' };
    expect(await runJob(summarizePendingJob, w.deps(one))).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/404 not_found_error: model: claude-haiku-4-5/),
    });
    expect(fake.messageRequests()).toHaveLength(1);
    expect(await w.summary(p)).toBeUndefined();
  });

  it('still fails one paper the API rejects on its own (a different answer follows), to be tried again later', async () => {
    await w.db().db.delete(papers);
    const bad = await w.addPaper();
    await w.addPaper({ newsAt: new Date(NOW.getTime() - 60_000) }); // older news: summarised after `bad`
    fake.script(bad.arxivId!, [{ status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' }]);
    expect(await summarizePending(w.deps(one))).toMatchObject({ ok: 1, failed: 1, stopped: null });
    expect(await w.summary(bad)).toMatchObject({
      status: 'failed',
      attempts: 1,
      retryAt: hourLater(2),
      error: expect.stringMatching(/^rejected: 400 invalid_request_error: prompt is too long/),
    });
  });
});

describe('summarize-pending: malformed and cut-off answers', () => {
  const w = useSummaryWorld(() => fake);

  it('retries an answer cut off at max_tokens with twice the room, and pays for both', async () => {
    const p = await w.addPaper();
    fake.script(p.arxivId!, ['max_tokens', 'ok']);
    expect(await summarizePending(w.deps())).toMatchObject({ ok: 1 });
    expect(w.requestsFor(p).map((r) => r.body.max_tokens)).toEqual([3000, 6000]);
    expect(await w.summary(p)).toMatchObject({
      status: 'ok',
      inputTokens: 2000,
      outputTokens: 800,
      costUsd: '0.006000',
    });
    const q = await w.addPaper();
    fake.script(q.arxivId!, ['max_tokens', 'max_tokens']);
    expect(await summarizePending(w.deps())).toMatchObject({ failed: 1 });
    expect(await w.summary(q)).toMatchObject({
      status: 'failed',
      error: 'cut off: the answer reached max_tokens; retry: cut off: the answer reached max_tokens',
    });
  });

  it('retries a malformed paper on later runs with backoff (2 h, 8 h, 32 h), then gives up; every attempt is paid', async () => {
    const db = w.db().db;
    await db.delete(papers);
    const p = await w.addPaper();
    fake.otherwise = 'malformed';
    for (const [i, now] of [NOW, hourLater(2), hourLater(10), hourLater(42)].entries()) {
      expect(await summarizePending({ ...w.deps(), now: () => now })).toMatchObject({ pending: 1, failed: 1 });
      expect(await w.summary(p)).toMatchObject({ status: 'failed', attempts: i + 1 });
      // Not before its time.
      expect(await summarizePending({ ...w.deps(), now: () => now })).toMatchObject({ pending: 0 });
    }
    expect(await w.summary(p)).toMatchObject({ retryAt: null, costUsd: '0.024000' }); // four attempts of two calls: failed for good
    expect(await failedSummaryCounts(db, PROMPT_VERSION)).toEqual({ retrying: 0, gaveUp: 1 });
    expect(await summarizePending({ ...w.deps(), now: () => hourLater(500) })).toMatchObject({ pending: 0 });
    expect(await spendToday(db, hourLater(42))).toBeCloseTo(0.006, 6);
  });

  it('summarises on a later run a paper whose answers were malformed in the first', async () => {
    await w.db().db.delete(papers);
    const p = await w.addPaper();
    fake.script(p.arxivId!, ['malformed', 'malformed']);
    await summarizePending(w.deps());
    expect(await failedSummaryCounts(w.db().db, PROMPT_VERSION)).toMatchObject({ retrying: 1 });
    expect(await summarizePending({ ...w.deps(), now: () => hourLater(2) })).toMatchObject({ pending: 1, ok: 1 });
    expect(await w.summary(p)).toMatchObject({ status: 'ok', retryAt: null });
  });
});

describe('summarize-pending: a batch that can no longer be collected', () => {
  const w = useSummaryWorld(() => fake);
  const env = { LLM_BATCH_THRESHOLD: '2', LLM_BATCH_MAX_WAIT_MS: '0' };

  for (const fate of ['not-found', 'expired', 'archived'] as const) {
    it(`abandons a ${fate} batch, puts its papers back to pending and goes on in the same run`, async () => {
      const db = w.db().db;
      await db.delete(papers);
      for (let i = 0; i < 3; i++) await w.addPaper();
      fake.batchPollsBeforeEnd = 100;
      expect(await summarizePending(w.deps(env))).toMatchObject({ mode: 'batch-waiting', pending: 3 });
      const left = (await getPendingBatch(db))!;
      fake.loseBatches(fate);
      fake.batchPollsBeforeEnd = 0;
      const next = await summarizePending(w.deps({ ...env, LLM_BATCH_MAX_WAIT_MS: '1000' }));
      const reason = {
        'not-found': /the API does not know this batch \(404 not_found_error/,
        expired: /ended without results/,
        archived: /was archived on .*; its results are gone/,
      }[fate];
      expect(next).toMatchObject({ mode: 'batch', ok: 3, batchAbandoned: expect.stringMatching(reason) });
      expect(next.batchId).not.toBe(left.id);
      expect(await getPendingBatch(db)).toBeUndefined();
      expect(await db.select().from(summaries)).toHaveLength(3);
    });
  }

  it('collects a batch stored before retries existed (no attempt counts)', async () => {
    const db = w.db().db;
    await db.delete(papers);
    for (let i = 0; i < 3; i++) await w.addPaper();
    fake.batchPollsBeforeEnd = 100;
    await summarizePending(w.deps(env));
    const left = (await getPendingBatch(db))!;
    await setPendingBatch(db, { ...left, items: left.items.map(({ attempts: _, ...i }) => i) }, NOW);
    fake.batchPollsBeforeEnd = 0;
    expect(await summarizePending(w.deps(env))).toMatchObject({ mode: 'batch-collected', ok: left.items.length });
  });
});

describe('the model at start-up', () => {
  it('refuses a model without structured outputs, naming the variable and the models that work', () => {
    const config = loadConfig({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'claude-3-5-haiku-20241022' });
    expect(() => buildDeps({ db: {} as never, sql: {} as never, config, log: pino({ level: 'silent' }) })).toThrow(
      ConfigError,
    );
    expect(() => buildDeps({ db: {} as never, sql: {} as never, config, log: pino({ level: 'silent' }) })).toThrow(
      /ANTHROPIC_MODEL=claude-3-5-haiku-20241022 does not support structured outputs.*claude-haiku-4-5/,
    );
  });

  it('reports a model it does not know, and runs', () => {
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => lines.push(l) });
    const deps = buildDeps({
      db: {} as never,
      sql: {} as never,
      config: loadConfig({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'claude-haiku-9-9' }),
      log,
    });
    expect(deps.llm?.model).toBe('claude-haiku-9-9');
    expect(lines.join('')).toMatch(/ANTHROPIC_MODEL=claude-haiku-9-9 is not in src\/services\/llm\/models\.ts/);
  });
});
