import { eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { paperTexts, papers, type Paper } from '../../db/schema.ts';
import { fetchTexts } from '../../jobs/fetch-text.ts';
import type { JobDeps } from '../../jobs/index.ts';
import { httpOptions } from '../../jobs/poll-feeds.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { Pacer } from '../../src/services/sources/http.ts';
import { htmlFixture, PAPER_HTML } from '../helpers/arxiv-html.ts';
import { createTestDb } from '../helpers/db.ts';
import { startFeedServer, type FeedServer } from '../helpers/feed-server.ts';

describe('fetchTexts', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let server: FeedServer;
  let now = new Date('2026-11-23T06:30:00Z');
  let deps: JobDeps;
  let busy = true;

  beforeAll(async () => {
    t = await createTestDb();
    server = await startFeedServer((url) => {
      if (url.pathname === '/html/2611.04242v2')
        return { body: htmlFixture(PAPER_HTML), headers: { 'content-type': 'text/html' } };
      if (url.pathname === '/html/2611.05555v1') return { body: htmlFixture('stub-no-html.html') };
      if (url.pathname === '/html/2611.09999v1')
        return { body: `<html><body>${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}</body></html>` };
      if (url.pathname === '/html/2611.07777v1')
        return busy ? { status: 503, body: 'busy' } : { body: htmlFixture(PAPER_HTML) };
      return undefined; // 404: arXiv has no HTML for 2611.06666v1
    });
    deps = buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => now,
      config: loadConfig({ ARXIV_HTML_BASE: `${server.base}/html/`, ARXIV_REQUEST_INTERVAL_MS: '0' }),
    });
  });

  const add = async (arxivId: string, v: number, family = true): Promise<Paper> =>
    (
      await t.db
        .insert(papers)
        .values({
          arxivId,
          arxivVersion: v,
          titleKey: arxivId,
          title: `Paper ${arxivId}`,
          abstract: 'An abstract.',
          rulesFamily: family,
          rulesScore: family ? 0.9 : 0.05,
        })
        .returning()
    )[0]!;
  const textOf = async (p: Paper) =>
    t.db.select().from(paperTexts).where(eq(paperTexts.paperId, p.id)).orderBy(paperTexts.version);

  it("stores each family paper's text with its rules settings, or why it has none (404, a 200 stub, a failure tried again later)", async () => {
    const ok = await add('2611.04242', 2);
    const stub = await add('2611.05555', 1);
    const missing = await add('2611.06666', 1);
    const failing = await add('2611.07777', 1);
    await add('2611.08888', 1, false);
    // One arXiv pacer for the run: every request waits its 3 s turn after the previous one.
    const waits: number[] = [];
    let clock = 0;
    const pacer = new Pacer(3000, {
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    });
    const http = { ...httpOptions(deps).arxivHttp, pacer, sleep: async () => {} };

    expect(await fetchTexts(deps, { limit: 10, arxivHttp: http })).toEqual({
      candidates: 4,
      ok: 1,
      noHtml: 2,
      failed: 1,
      firstError: expect.stringMatching(/2611\.07777v1: HTTP 503/),
    });
    expect(server.requests.map((r) => r.path).sort()).toEqual([
      '/html/2611.04242v2',
      '/html/2611.05555v1',
      '/html/2611.06666v1',
      '/html/2611.07777v1',
      '/html/2611.07777v1',
    ]);
    expect(waits).toEqual([3000, 3000, 3000, 3000]);
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^grpo-digest/);

    const [text] = await textOf(ok);
    expect(text).toMatchObject({ version: 2, status: 'ok', url: `${server.base}/html/2611.04242v2`, truncated: false });
    expect(text!.sections.map((s) => s.heading)).toContain('Appendix A Training details');
    expect(text!.rulesSettings).toContainEqual({
      key: 'clip_eps_high',
      value: '0.28',
      evidence: 'Clip range $(\\epsilon_{low},\\epsilon_{high})$ | (0.2, 0.28)',
    });
    expect((await textOf(stub))[0]).toMatchObject({
      status: 'no-html',
      reason: expect.stringContaining('No HTML for'),
    });
    expect((await textOf(missing))[0]).toMatchObject({
      status: 'no-html',
      reason: 'arXiv has no HTML for this version (HTTP 404)',
    });
    expect((await textOf(failing))[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      retryAt: new Date('2026-11-23T08:30:00Z'),
    });

    // Nothing is read twice; the failed one waits for its time.
    server.requests.length = 0;
    expect(await fetchTexts(deps, { limit: 10, arxivHttp: http })).toMatchObject({ candidates: 0 });
    busy = false;
    now = new Date('2026-11-23T09:00:00Z');
    expect(await fetchTexts(deps, { limit: 10, arxivHttp: http })).toMatchObject({ candidates: 1, ok: 1 });
    expect((await textOf(failing))[0]).toMatchObject({ status: 'ok', attempts: 0, retryAt: null });

    // A new version is read again; the old version's text stays.
    await t.db.update(papers).set({ arxivVersion: 3 }).where(eq(papers.id, ok.id));
    expect(await fetchTexts(deps, { limit: 10, arxivHttp: http })).toMatchObject({ candidates: 1, noHtml: 1 });
    expect((await textOf(ok)).map((r) => `${r.version}:${r.status}`)).toEqual(['2:ok', '3:no-html']);
  });
  it('reads a page nested 200,000 elements deep as no HTML, without failing the run or the next paper', async () => {
    const deep = await add('2611.09999', 1);
    const next = await add('2611.04243', 1);
    const http = { ...httpOptions(deps).arxivHttp, sleep: async () => {} };
    const stats = await fetchTexts(deps, { limit: 10, arxivHttp: http, papers: [deep, next] });
    expect(stats).toMatchObject({ candidates: 2, noHtml: 2 });
    const [text] = await textOf(deep);
    expect(text).toMatchObject({ status: 'no-html', reason: expect.stringMatching(/nests elements over [\d,]+ deep/) });
  });
});
