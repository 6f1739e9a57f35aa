import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { papers, summaries } from '../../db/schema.ts';
import { cli } from '../helpers/cli.ts';
import { createTestDb } from '../helpers/db.ts';

describe('grpo-digest CLI on DATABASE_URL', { timeout: 90_000 }, () => {
  let env: Record<string, string>;
  let t: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    t = await createTestDb();
    env = { DATABASE_URL: t.url };
  });

  it('seeds idempotently and reports counts as JSON and text', async () => {
    const first = await cli(['seed', '--json'], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).papers).toMatchObject({ total: 238, added: 238, withArxivId: 133 });
    const second = await cli(['seed'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Seed corpus already imported: nothing changed.');
  });

  it('searches with clean JSON on stdout', async () => {
    const r = await cli(['search', 'group sequence policy', '--limit', '3', '--json'], env);
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.stdout) as { arxivId: string }[];
    expect(hits[0]!.arxivId).toBe('2507.18071');
    expect(hits.length).toBeLessThanOrEqual(3);
    // A paper whose source counted its 8 authors without naming them: names unknown (null), not "no authors".
    const counted = JSON.parse(
      (await cli(['search', 'dual-level down-sampling', '--limit', '1', '--json'], env)).stdout,
    ) as { arxivId: string; authors: unknown; authorCount: number }[];
    expect(counted[0]).toMatchObject({ arxivId: '2509.22115', authors: null, authorCount: 8 });
  });

  it('shows a paper by URL as text', async () => {
    const r = await cli(['show', 'https://arxiv.org/abs/2507.18071'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('■ Group Sequence Policy Optimization');
    // A family's name stands for its defining paper, as on Discord; one not stored says so.
    const family = await cli(['show', 'GSPO'], env);
    expect(family.stdout).toContain('■ Group Sequence Policy Optimization');
    const missing = await cli(['show', 'DAPO'], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(
      /DAPO's defining paper \(arXiv 2503\.14476\) is not in the corpus yet; try: grpo-digest search DAPO/,
    );
  });

  it('fails with a hint on stderr and nothing on stdout for an unknown paper or a bad option', async () => {
    const unknown = await cli(['show', '2507.99999', '--json'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/not in the corpus; try: grpo-digest search/);
    const bad = await cli(['search', 'grpo', '--limit', 'lots'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/must be a whole number/);
  });

  it('answers a usage mistake with one line and exit 2, before touching the database', async () => {
    for (const args of [
      ['search', 'grpo', '--limit', '0'],
      ['poll', '--bogus'],
      ['show'],
      ['export', '--format', 'xml'],
    ]) {
      const r = await cli(args, { ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
      expect({ args, code: r.code, lines: r.stderr.trim().split('\n').length }).toEqual({ args, code: 2, lines: 1 });
      expect(r.stderr).toMatch(/^grpo-digest: .+ \(add --help for usage\)\n$/);
      expect(r.stdout).toBe('');
    }
  });

  it('says whether migrate applied anything, and refuses to poll a day that has not come', async () => {
    expect((await cli(['migrate'], env)).stdout).toBe('The schema is up to date: no migration to apply.\n');
    const future = await cli(['poll', '--date', '2999-01-01'], env);
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/--date 2999-01-01 is after today/);
  });

  it('exports every paper as one JSON line each, with its LLM summaries', async () => {
    const [gspo] = await t.db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, '2507.18071'));
    await t.db.insert(summaries).values({
      paperId: gspo!.id,
      lang: 'en',
      promptVersion: 'v9',
      status: 'ok',
      model: 'claude-haiku-4-5',
      content: { tldr: 'Sequence-level ratios.' },
    });
    await t.db
      .insert(summaries)
      .values({ paperId: gspo!.id, lang: 'zh', promptVersion: 'v9', status: 'failed', error: 'refused' });
    const r = await cli(['export', '--format', 'jsonl'], env);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            arxiv_id: string | null;
            notes: unknown[];
            summaries: { lang: string; model: string; content: { tldr: string } }[];
          },
      );
    expect(lines).toHaveLength(238);
    expect(lines.filter((l) => l.notes.length > 0)).toHaveLength(130);
    expect(lines.find((l) => l.arxiv_id === '2507.18071')!.summaries).toEqual([
      expect.objectContaining({ lang: 'en', model: 'claude-haiku-4-5', content: { tldr: 'Sequence-level ratios.' } }),
    ]);
    expect(lines.filter((l) => l.summaries.length > 0)).toHaveLength(1);
    expect(r.stdout).not.toContain('search_zh');
  });

  it('names the bad variable when the configuration is invalid', async () => {
    const r = await cli(['search', 'x'], { ...env, LOG_LEVEL: 'loud' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('LOG_LEVEL');
  });

  it('answers piped console commands one per line and exits at end of input', async () => {
    const r = await cli(['console'], env, '/paper show id:2507.18071\n/paper latest count:1\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('■ Group Sequence Policy Optimization');
    expect(r.stdout).toContain('■ The latest GRPO-family paper');
  });
});

describe('npm start on embedded defaults', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'grpo-start-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts its own Postgres, imports the seeds on first start, and answers piped commands', async () => {
    const r = await cli(['start'], { DATA_DIR: dataDir }, '/paper show id:2507.18071\n');
    // The first start says what it is doing (on stderr; stdout is the answers).
    expect(r.stderr).toMatch(
      /^First start: creating the embedded Postgres database in .*\/pg \(usually 3-10 s\)\.\nFirst start: reading the 238 seed papers and repairing their Chinese notes.*\nImported 238 papers with 130 Chinese notes\. Ready\.\n$/,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('群组序列策略优化');
    const again = await cli(['start'], { DATA_DIR: dataDir }, '/paper search query:GSPO limit:1\n');
    expect(again.stderr).toBe(''); // a later start is quick and quiet
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Group Sequence Policy Optimization');
    // The health endpoint needs the Discord bot: the console says so rather than leave an operator waiting.
    const withMetrics = await cli(['start'], { DATA_DIR: dataDir, METRICS_PORT: '9464' }, '/help\n');
    expect(withMetrics.stderr).toMatch(
      /METRICS_PORT is set, but \/healthz and \/metrics run only with the Discord bot \(set DISCORD_TOKEN\)/,
    );
    expect(withMetrics.code).toBe(0);
  }, 120_000);
});
