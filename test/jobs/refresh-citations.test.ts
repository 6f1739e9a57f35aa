import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { status } from '../../commands/status.ts';
import { getPaperDetail } from '../../db/queries/papers.ts';
import { familyPaperPool } from '../../db/queries/status.ts';
import { loadSampleCandidates } from '../../db/queries/digest.ts';
import { citationCounts, papers, type Paper } from '../../db/schema.ts';
import { createJobs } from '../../jobs/graph.ts';
import { runJob, type Job, type JobDeps } from '../../jobs/index.ts';
import { refreshCitationsJob } from '../../jobs/refresh-citations.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { paperCardReply } from '../../src/core/views/paper-card.ts';
import { startFakeS2, type FakeS2, type FakeS2Options } from '../fakes/semantic-scholar.ts';
import { commandInput, replyText } from '../commands/helpers.ts';
import { createTestDb } from '../helpers/db.ts';

const KEY = 's2-test-key-0123456789';
const KNOWN = {
  '2402.03300': { citationCount: 1234, influentialCitationCount: 56 },
  '2503.14476': { citationCount: 300, influentialCitationCount: 12 },
  '2507.18071': { citationCount: 80, influentialCitationCount: 4 },
  '2504.05118': { citationCount: 5, influentialCitationCount: 0 },
};

describe('the citation refresh (refresh-citations) against a fake Semantic Scholar', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let fake: FakeS2;
  let logLines: string[];
  let waits: number[];
  const now = new Date('2026-11-28T07:30:00Z');
  const byArxiv = new Map<string, Paper>();

  beforeAll(async () => {
    t = await createTestDb();
    const ids = [...Object.keys(KNOWN), '2611.00001'];
    for (const arxivId of ids) {
      const [p] = await t.db
        .insert(papers)
        .values({ arxivId, titleKey: arxivId, title: `Paper ${arxivId}`, rulesFamily: true, rulesScore: 0.9 })
        .returning();
      byArxiv.set(arxivId, p!);
    }
    // Out of the family: never asked about.
    await t.db.insert(papers).values({ arxivId: '2611.09999', titleKey: 'x', title: 'Off topic', rulesFamily: false });
  });

  beforeEach(async () => {
    await t.db.delete(citationCounts);
    logLines = [];
    waits = [];
  });
  afterEach(async () => {
    await fake?.close();
  });

  /** A fresh fake (its rate window starts clean) and deps pointed at it. */
  const setUp = async (fakeOpts: FakeS2Options, env: Record<string, string> = {}) => {
    fake = await startFakeS2({ papers: KNOWN, apiKey: KEY, ...fakeOpts });
    const log = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
    const deps: JobDeps = buildDeps({
      db: t.db,
      sql: t.sql,
      log,
      now: () => now,
      config: loadConfig({ S2_API_BASE: fake.base, S2_API_KEY: KEY, ...env }),
    });
    const job: Job = refreshCitationsJob({ sleep: async (ms) => void waits.push(ms) });
    return { deps, job };
  };
  const stored = async (arxivId: string) =>
    (
      await t.db
        .select()
        .from(citationCounts)
        .where(eq(citationCounts.paperId, byArxiv.get(arxivId)!.id))
    )[0];

  it('stores the counts of the papers Semantic Scholar knows, in one batch request with the key', async () => {
    const { deps, job } = await setUp({});
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({ status: 'ok', stats: { papers: 5, found: 4, unknown: 1, requests: 1 } });
    expect(await stored('2402.03300')).toMatchObject({ citationCount: 1234, influentialCount: 56, fetchedAt: now });
    expect(await stored('2611.00001')).toBeUndefined();
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/graph/v1/paper/batch', apiKey: KEY, status: 200 });
    expect(req!.ids.sort()).toEqual([...Object.keys(KNOWN), '2611.00001'].map((id) => `ARXIV:${id}`).sort());
  });

  it('shows the count on the paper card only when it is known', async () => {
    const { deps, job } = await setUp({});
    await runJob(job, deps);
    const known = replyText(paperCardReply(await getPaperDetail(t.db, byArxiv.get('2402.03300')!)));
    expect(known).toContain('Cited by 1,234 (56 influential) · as of 2026-11-28');
    const unknown = replyText(paperCardReply(await getPaperDetail(t.db, byArxiv.get('2611.00001')!)));
    expect(unknown).not.toContain('Cited by 1');
    expect(unknown).not.toContain('influential');
  });

  it('hands the counts to the digest ranking and the /paper random draw', async () => {
    const { deps, job } = await setUp({});
    await runJob(job, deps);
    const pool = await familyPaperPool(t.db);
    expect(pool.find((p) => p.id === byArxiv.get('2402.03300')!.id)?.citationCount).toBe(1234);
    expect(pool.find((p) => p.id === byArxiv.get('2611.00001')!.id)?.citationCount).toBeNull();
    const sample = await loadSampleCandidates(t.db, { guildId: 'g1', until: now, topics: [], minScore: 0, limit: 10 });
    expect(sample.find((p) => p.arxivId === '2503.14476')?.citations).toEqual({
      citationCount: 300,
      influentialCount: 12,
      fetchedAt: now,
    });
    expect(sample.find((p) => p.arxivId === '2611.00001')?.citations).toBeNull();
  });

  it('never sends two requests within the rate window, batch after batch', async () => {
    const { deps, job } = await setUp({}, { S2_BATCH_SIZE: '2' });
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({ status: 'ok', stats: { batches: 3, requests: 3, found: 4, rateLimited: 0 } });
    expect(fake.violations).toBe(0);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('waits what Retry-After says after a 429, then asks the same batch again', async () => {
    const { deps, job } = await setUp({ script: [{ status: 429, retryAfter: '7' }] });
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({ status: 'ok', stats: { requests: 2, rateLimited: 1, found: 4 } });
    expect(waits).toEqual([7_000]);
    expect(fake.violations).toBe(0);
  });

  it('gives up for the day after S2_MAX_RATE_LIMITED 429s, says so in /status, and the poll is not part of it', async () => {
    const { deps, job } = await setUp({ always: { status: 429 } }, { S2_MAX_RATE_LIMITED: '3' });
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringMatching(/429.*3 times; gave up/) });
    expect(fake.requests).toHaveLength(3);
    // Backoff without Retry-After: exponential with jitter, within its caps.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(1_000);
    expect(waits[1]).toBeLessThanOrEqual(4_000);
    const text = replyText(await status.execute(commandInput(undefined, {}), { ...deps, llm: null }));
    expect(text).toMatch(/Citations \(Semantic Scholar\)/);
    expect(text).toMatch(/0 of 5 GRPO-family papers have counts/);
    expect(text).toMatch(/failed · Semantic Scholar answered 429 \(rate limited\) 3 times; gave up/);
    // Its own job on its own schedule: never a follow-up of a poll, so its failure is never the poll's.
    const jobs = createJobs();
    const followUps = (j: Job | undefined): string[] => (j ? [j.name, ...followUps(j.then)] : []);
    for (const j of jobs.filter((x) => x.name.startsWith('poll')))
      expect(followUps(j)).not.toContain('refresh-citations');
    expect(jobs.map((j) => j.name)).toContain('refresh-citations');
  });

  it('stops at a Retry-After longer than it waits, naming the wait', async () => {
    const { deps, job } = await setUp({ script: [{ status: 429, retryAfter: '3600' }] });
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringMatching(/wait 3600 s \(Retry-After\)/) });
    expect(waits).toEqual([]);
  });

  it('tries a 5xx storm four times with backoff, then stops and says why', async () => {
    const { deps, job } = await setUp({ always: { status: 503 } });
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/failed 4 times in a row .*HTTP 503.*gave up until/),
    });
    expect(fake.requests).toHaveLength(4);
    expect(waits).toHaveLength(3);
    expect(fake.violations).toBe(0);
  });

  it('treats a slow answer past the timeout as a failure of the refresh, not of anything else', async () => {
    const { deps, job } = await setUp({ always: { delayMs: 1_500 } }, { HTTP_TIMEOUT_MS: '300' });
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringMatching(/timed out after 300 ms/) });
    expect(fake.requests).toHaveLength(4);
  });

  it('keeps what it stored when a later batch is refused (partial), and goes on from there tomorrow', async () => {
    const { deps, job } = await setUp(
      { script: [{ delayMs: 0 }, { status: 400 }] },
      { S2_BATCH_SIZE: '3', S2_MAX_RATE_LIMITED: '2' },
    );
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({
      status: 'ok',
      partial: expect.stringMatching(/^\d of 5 papers refreshed; .*HTTP 400/),
    });
    const refreshed = (await t.db.select().from(citationCounts)).length;
    expect(refreshed).toBeGreaterThan(0);
    // Tomorrow's refresh asks first about the papers that have no counts yet.
    fake.set({ script: [] });
    await new Promise((r) => setTimeout(r, 1_100)); // the fake's rate window, between two runs
    await runJob(job, deps);
    const firstAsked = fake.requests.at(-2)!.ids;
    const fresh = await t.db.select({ id: citationCounts.paperId }).from(citationCounts);
    expect(fresh.length).toBe(4);
    expect(firstAsked).toContain('ARXIV:2611.00001');
  });

  it('reads a 404 to a whole batch as "none known", and says so when every batch did', async () => {
    const { deps, job } = await setUp({ papers: {}, unknownBatch: '404' });
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({
      status: 'ok',
      stats: { found: 0, unknown: 5, notFoundBatches: 1 },
      partial: expect.stringMatching(/every batch answered 404/),
    });
  });

  it('never logs the API key, even when Semantic Scholar refuses it', async () => {
    const { deps, job } = await setUp({ apiKey: 'another-key-entirely' });
    const outcome = await runJob(job, deps);
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringMatching(/HTTP 403/) });
    expect(fake.requests[0]!.apiKey).toBe(KEY);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(KEY);
    expect(JSON.stringify(outcome)).not.toContain(KEY);
  });
});
