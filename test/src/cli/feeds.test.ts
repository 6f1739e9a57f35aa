import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, isNotNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { papers } from '../../../db/schema.ts';
import { cli } from '../../helpers/cli.ts';
import { createTestDb } from '../../helpers/db.ts';
import { apiFeed, hfPage, rssFeed, type ApiEntry } from '../../helpers/feed-builders.ts';
import { startFeedServer, type FeedServer, feedEnv } from '../../helpers/feed-server.ts';

const POSITIVE = {
  title: 'DAPO: An Open-Source LLM Reinforcement Learning System at Scale',
  abstract:
    'We propose the Decoupled Clip and Dynamic sAmpling Policy Optimization (DAPO) algorithm and train Qwen2.5-32B with large-scale reinforcement learning, reaching 50 points on AIME 2024.',
};
const NEGATIVE = {
  title: 'Direct Preference Optimization for Chat Models',
  abstract:
    'We fine-tune a chat model with DPO on human preference pairs, without any reinforcement learning, and evaluate on AlpacaEval.',
};

describe('grpo-digest classify', { timeout: 60_000 }, () => {
  it('prints one JSON line per paper, and names the bad lines without losing the good ones', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'classify-'));
    const file = path.join(dir, 'papers.jsonl');
    await writeFile(
      file,
      [
        JSON.stringify({ id: 'p1', ...POSITIVE }),
        '{not json',
        JSON.stringify({ arxiv_id: '2401.00001', ...NEGATIVE }),
        JSON.stringify({ abstract: 'no title' }),
      ].join('\n'),
    );
    const r = await cli(['classify', '--input', file], {});
    const out = r.stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            id?: string;
            arxiv_id?: string;
            grpo_family: boolean;
            families: string[];
            reasons: string[];
          },
      );
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ id: 'p1', grpo_family: true, families: expect.arrayContaining(['DAPO']) });
    expect(out[0]!.reasons.length).toBeGreaterThan(0);
    expect(out[1]).toMatchObject({ arxiv_id: '2401.00001', grpo_family: false });
    // Every output names its input line, so id-less papers can be matched.
    expect(out.map((o) => (o as { line?: number }).line)).toEqual([1, 3]);
    expect(r.stderr).toContain('line 2: not valid JSON');
    expect(r.stderr).toContain('line 4: title');
    expect(r.code).toBe(2);
  });

  it('reads stdin with --input -', async () => {
    const r = await cli(['classify', '--input', '-'], {}, `${JSON.stringify(POSITIVE)}\n`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ line: 1, grpo_family: true });
  });

  it('says so when the input file does not exist', async () => {
    const r = await cli(['classify', '--input', '/nonexistent/papers.jsonl'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Cannot read \/nonexistent\/papers\.jsonl/);
  });
});

describe('grpo-digest poll and backfill', { timeout: 90_000 }, () => {
  let env: Record<string, string>;
  let db: Awaited<ReturnType<typeof createTestDb>>;
  let server: FeedServer;
  const entries: ApiEntry[] = Array.from({ length: 501 }, (_, i) => ({
    id: `2510.${String(10000 + i)}`,
    published: '2025-10-02T10:00:00Z',
    ...(i === 7 ? POSITIVE : {}),
  }));

  beforeAll(async () => {
    db = await createTestDb();
    server = await startFeedServer((url) => {
      if (url.pathname.startsWith('/rss/'))
        return { body: rssFeed(url.pathname.slice(5), '2026-11-20', [{ id: '2611.70001', ...POSITIVE }]) };
      if (url.pathname === '/api/daily_papers')
        return { body: hfPage([{ id: '2611.70001', upvotes: 3 }], url.searchParams.get('date')!) };
      if (url.pathname === '/api/query') {
        if (!url.searchParams.get('search_query')!.includes('submittedDate:[202510010000'))
          return { body: apiFeed([]) };
        const start = Number(url.searchParams.get('start'));
        const size = Number(url.searchParams.get('max_results'));
        return { body: apiFeed(entries.slice(start, start + size), entries.length, start) };
      }
      return undefined;
    });
    env = {
      DATABASE_URL: db.url,
      ...feedEnv(server.base),
    };
  });

  it("polls every source once, reports per-feed counts, then runs the bot's follow-ups (or not, with --no-follow-ups)", async () => {
    const r = await cli(['poll'], env);
    // The empty database gets the seed corpus first, and says so; nothing else goes to stderr.
    expect(r.stderr).toMatch(
      /^First start: reading the 238 seed papers.*\nImported 238 papers with 130 Chinese notes\. Ready\.\n$/,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^arxiv-rss:cs\.LG: 1 fetched, 1 new, 0 updated, 1 GRPO-family, 0 skipped$/m);
    expect(r.stdout).toMatch(/^hf-daily: 1 fetched, 0 new, 1 updated/m);
    expect(r.stdout).toMatch(/^Relevance judge: no ANTHROPIC_API_KEY, so the key-less filter decides alone\.$/m);
    expect(r.stdout).toMatch(
      /^Summaries: no ANTHROPIC_API_KEY, so none were written; \d+ of the \d+ GRPO-family papers \(those with an abstract\) show labelled extractive summaries\.$/m,
    );
    expect(r.stdout).toMatch(/^Subscribers: not notified from the shell \(that needs the bot's Discord connection\)/m);
    const json = await cli(['poll', '--source', 'hf-daily', '--no-follow-ups', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ status: 'ok', stats: expect.objectContaining({ new: 0, failed: 0 }) });
  });

  it('refuses a past date for RSS, which only serves today', async () => {
    const r = await cli(['poll', '--source', 'arxiv-rss', '--date', '2026-11-01'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/only serves today/);
  });

  it('backfills a date window page by page without announcing anything', async () => {
    const r = await cli(['backfill', '--from', '2025-10-01', '--to', '2025-10-03', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'ok', stats: { fetched: 501, new: 501, family: 1 } });
    const queries = server.requests.filter(
      (q) => q.path === '/api/query' && q.query.get('search_query')!.includes('202510010000'),
    );
    expect(queries.map((q) => q.query.get('start'))).toEqual(['0', '500']);
    expect(queries[0]!.query.get('search_query')).toMatch(
      /^\(ti:GRPO OR abs:GRPO OR .*\) AND \(cat:cs\.LG\) AND submittedDate:\[202510010000 TO 202510032359\]$/,
    );
    expect(await db.db.select().from(papers).where(eq(papers.arxivId, '2510.10007'))).toMatchObject([
      { grpoFamily: true, newsAt: null },
    ]);
    expect((await db.db.select({ id: papers.id }).from(papers).where(isNotNull(papers.newsAt))).length).toBe(0);
  });

  it('rejects an inverted window and an impossible date', async () => {
    expect((await cli(['backfill', '--from', '2025-10-03', '--to', '2025-10-01'], env)).stderr).toMatch(
      /--from 2025-10-03 is after --to 2025-10-01/,
    );
    expect((await cli(['backfill', '--from', '2025-02-30', '--to', '2025-03-01'], env)).stderr).toMatch(
      /must be a date like/,
    );
  });
});
