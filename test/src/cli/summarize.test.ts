import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getSummary } from '../../../db/queries/summaries.ts';
import { papers, type Paper } from '../../../db/schema.ts';
import { PROMPT_VERSION } from '../../../src/services/summarize/schema.ts';
import { cli } from '../../helpers/cli.ts';
import { createTestDb } from '../../helpers/db.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../../helpers/fake-anthropic.ts';

describe('grpo-digest summarize', { timeout: 90_000 }, () => {
  let db: Awaited<ReturnType<typeof createTestDb>>;
  let fake: FakeAnthropic;
  let env: Record<string, string>;
  let offTopic: Paper;

  beforeAll(async () => {
    db = await createTestDb();
    fake = await startFakeAnthropic();
    const paper = (arxivId: string, rulesFamily: boolean) => ({
      arxivId,
      titleKey: arxivId,
      title: `Paper ${arxivId}`,
      abstract: 'We clip the importance ratio per sequence in GRPO.',
      rulesFamily,
      newsAt: new Date('2026-11-21T06:20:00Z'),
    });
    [, , offTopic] = (await db.db
      .insert(papers)
      .values([paper('2611.80001', true), paper('2611.80002', true), paper('2611.80003', false)])
      .returning()) as [Paper, Paper, Paper];
    env = { DATABASE_URL: db.url, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.base };
  });
  beforeEach(() => fake.reset());

  it('summarises the pending GRPO-family papers and says what it did and spent', async () => {
    const r = await cli(['summarize'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Summaries \(en, direct\): 2 ok, 0 failed \(each is tried again later, 4 attempts in all\), 0 left pending, of the 2 pending among the \d+ GRPO-family papers\.$/m,
    );
    expect(r.stdout).toMatch(/^LLM spend today \(UTC\): \$0\.0060 of \$1\.00\.$/m);
    expect(fake.messageRequests()).toHaveLength(2);
  });

  it('summarises one paper on demand (--paper, --lang, --json), once', async () => {
    const r = await cli(['summarize', '--paper', '2611.80003', '--lang', 'zh', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'ok', stats: { languages: 'zh', pending: 1, ok: 1 } });
    expect(await getSummary(db.db, offTopic.id, 'zh', PROMPT_VERSION)).toMatchObject({ status: 'ok' });
    const again = await cli(['summarize', '--paper', 'https://arxiv.org/abs/2611.80003', '--lang', 'zh'], env);
    expect(again.stdout).toMatch(/already summarised in zh/);
    expect(fake.messageRequests()).toHaveLength(1);
  });

  it('refuses a missing key and a model without structured outputs, with what to do', async () => {
    const noKey = await cli(['summarize'], { DATABASE_URL: db.url });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/No ANTHROPIC_API_KEY is set/);
    const old = await cli(['summarize'], { ...env, ANTHROPIC_MODEL: 'claude-3-5-haiku-20241022' });
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(
      /^grpo-digest: ANTHROPIC_MODEL=claude-3-5-haiku-20241022 does not support structured outputs, which summaries and \/ask need.*Use one of: claude-haiku-4-5/,
    );
    expect(fake.requests).toEqual([]);
  });

  it('stops on a problem every request shares and says so, marking nothing failed', async () => {
    await db.db.insert(papers).values(
      [80004, 80005, 80006].map((n) => ({
        arxivId: `2611.${n}`,
        titleKey: `k${n}`,
        title: `Paper ${n}`,
        abstract: 'We study GRPO.',
        rulesFamily: true,
      })),
    );
    fake.otherwise = { status: 400, message: 'system.0: unexpected field "cache_ttl"' };
    const r = await cli(['summarize', '--lang', 'en'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^grpo-digest: Summaries stopped: the API rejected 2 requests in a row the same way: 400 invalid_request_error: system\.0: unexpected field/m,
    );
    expect(r.stderr).toMatch(/no paper was marked failed/);
  });
});
