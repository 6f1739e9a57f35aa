import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJobRuns } from '../../../db/queries/job-runs.ts';
import { papers } from '../../../db/schema.ts';
import { cli, ROOT } from '../../helpers/cli.ts';
import { createTestDb } from '../../helpers/db.ts';
import { rssFeed } from '../../helpers/feed-builders.ts';
import { startFeedServer, type FeedServer } from '../../helpers/feed-server.ts';

/**
 * The CLI as an operator meets it when things go wrong: every feed failing, a poll killed half-way,
 * a database it cannot reach, a DATA_DIR it cannot use, LOG_LEVEL, a NUL typed into the console, an
 * upstream that echoes the API key. Each runs the real CLI in its own process.
 */
describe('the CLI when things go wrong', { timeout: 120_000 }, () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let feeds: FeedServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestDb();
    feeds = await startFeedServer();
    // One stored paper, so no command imports the seed corpus first.
    await t.db.insert(papers).values({
      arxivId: '2507.18071',
      title: 'Group Sequence Policy Optimization',
      titleKey: 'groupsequencepolicyoptimization',
      abstract: 'GSPO defines the importance ratio at the sequence level and clips whole responses.',
      rulesFamily: true,
      rulesScore: 0.95,
      families: ['GSPO'],
    });
    env = {
      DATABASE_URL: t.url,
      ARXIV_RSS_BASE: `${feeds.base}/rss`,
      ARXIV_API_BASE: `${feeds.base}/api/query`,
      HF_API_BASE: `${feeds.base}/api`,
      ARXIV_CATEGORIES: 'cs.LG',
      ARXIV_REQUEST_INTERVAL_MS: '0',
    };
  });

  it('exits non-zero when every feed failed, with the causes, text or JSON, and records the poll as failed', async () => {
    feeds.route(() => ({ status: 404, body: 'gone' }));
    // As a user runs it: no LOG_LEVEL.
    const text = await cli(['poll'], { ...env, LOG_LEVEL: '' });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('arxiv-rss:cs.LG: FAILED (GET http://127.0.0.1');
    expect(text.stderr).toContain('grpo-digest: every feed failed (3): arxiv-rss:cs.LG: GET http://127.0.0.1');
    // The log adds one short line per problem: no JSON, no stack.
    expect(text.stderr).not.toMatch(/"level"|stack|at async/);
    expect(text.stderr.trim().split('\n').length).toBeLessThanOrEqual(5);
    expect((await lastJobRuns(t.db, 'poll-feeds', 1))[0]).toMatchObject({ status: 'failed' });
    const json = await cli(['poll', '--source', 'hf-daily', '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('every feed failed (1)'),
      stats: { failed: 1, feeds: { 'hf-daily': { status: 'failed', error: expect.stringContaining('HTTP 404') } } },
    });
  });

  it('exits 1 when every full-text fetch failed, with the cause', async () => {
    feeds.route(() => ({ status: 500, body: 'down' }));
    const r = await cli(['fetch-text', '--paper', '2507.18071'], { ...env, ARXIV_HTML_BASE: `${feeds.base}/html` });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/every fetch failed \(1\): GET http:\/\/127\.0\.0\.1:\d+\/html\/2507\.18071.*HTTP 500/);
  });

  it('marks a poll killed half-way as interrupted when the next poll runs', async () => {
    feeds.route((url) => (url.pathname.startsWith('/rss/') ? { hang: true } : { status: 404 }));
    // The whole process group: the CLI's launcher and the Node process it starts.
    const child = spawn(path.join(ROOT, 'bin/grpo-digest'), ['poll', '--source', 'arxiv-rss'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let running = false;
      for (let i = 0; i < 600 && !running; i++) {
        running = (await lastJobRuns(t.db, 'poll-feeds', 1))[0]?.status === 'running';
        if (!running) await sleep(100);
      }
      expect(running).toBe(true);
    } finally {
      // Killed whatever happened above, so a failure never leaves the poll running.
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }

    feeds.route((url) =>
      url.pathname.startsWith('/rss/')
        ? { body: rssFeed('cs.LG', '2026-11-20', [{ id: '2611.90001' }]) }
        : { status: 404 },
    );
    const next = await cli(['poll', '--source', 'arxiv-rss'], env);
    expect(next.code).toBe(0);
    const runs = await lastJobRuns(t.db, 'poll-feeds', 2);
    expect(runs.map((r) => r.status)).toEqual(['ok', 'interrupted']);
  });

  it('names the database it cannot reach, without its password; LOG_LEVEL=debug adds the details', async () => {
    const r = await cli(['search', 'clipping'], {
      DATABASE_URL: 'postgres://grpo:hunter2-secret@127.0.0.1:1/nowhere',
      LOG_LEVEL: 'debug',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'grpo-digest: Cannot connect to DATABASE_URL (postgres://grpo@127.0.0.1:1/nowhere): nothing listens there (connection refused).',
    );
    expect(r.stderr).not.toContain('hunter2-secret');
    expect(r.stderr).not.toContain('Failed query');
    const debug = await cli(['search', 'clipping'], { ...env, LOG_LEVEL: 'debug' });
    expect(debug.stderr).toContain('database ready');
  });

  it('says DATA_DIR cannot be used instead of hanging on a path under /proc', async () => {
    const r = await cli(['search', 'clipping'], { DATA_DIR: '/proc/grpo-digest-data' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^grpo-digest: Cannot use \/proc\/grpo-digest-data for the embedded Postgres \(set DATA_DIR to a folder you can write\)/,
    );
  });

  it('answers a console line with a NUL in an option instead of failing it', async () => {
    const r = await cli(['console'], env, '/paper search query:sequence\u0000 level clipping\n');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('database ready'); // LOG_LEVEL=warn: no debug lines
    expect(r.stdout).toContain('Group Sequence Policy Optimization');
    expect(r.stdout).not.toContain('went wrong');
  });

  it('redacts the API key an upstream echoes from ask --json and the log', async () => {
    const key = 'sk-ant-api03-SECRETSECRETSECRET';
    const echo = createServer((req, res) => {
      req.resume();
      res.writeHead(400, { 'content-type': 'application/json', 'retry-after-ms': '1' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `bad request; you sent authorization: ${req.headers.authorization}`,
          },
        }),
      );
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));
    const r = await cli(['ask', 'which paper clips whole sequences?', '--json'], {
      ...env,
      ANTHROPIC_API_KEY: key,
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${(echo.address() as AddressInfo).port}`,
      LOG_LEVEL: 'debug',
    });
    expect(`${r.stdout}\n${r.stderr}`).toContain('[redacted]');
    expect(r.stdout).not.toContain('SECRETSECRET');
    expect(r.stderr).not.toContain('SECRETSECRET');
  });
});
