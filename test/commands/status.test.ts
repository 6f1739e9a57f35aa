import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { status } from '../../commands/status.ts';
import { topics } from '../../commands/topics.ts';
import { channels, deliveries, feedState, jobRuns, papers, paperTexts, summaries } from '../../db/schema.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { recordSpend } from '../../db/queries/spend.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import { createTestDb } from '../helpers/db.ts';
import { commandDeps, commandInput, replyText } from './helpers.ts';
import { PROMPT_VERSION } from '../../src/services/summarize/schema.ts';

describe('/status and /topics', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const now = new Date('2026-11-21T12:00:00Z');
  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    t = await createTestDb();
    await t.db.insert(feedState).values([
      { feed: 'arxiv-rss:cs.LG', health: 'ok', lastSuccessAt: at('2026-11-21T06:15:30Z') },
      {
        feed: 'hf-daily',
        health: 'failing',
        healthDetail: '3 failed polls in a row: HTTP 503 after 3 attempts',
        lastSuccessAt: at('2026-11-19T06:15:00Z'),
        consecutiveFailures: 3,
        lastError: 'HTTP 503',
      },
    ]);
    await t.db.insert(jobRuns).values({
      job: 'poll-feeds',
      startedAt: at('2026-11-21T06:15:00Z'),
      finishedAt: at('2026-11-21T06:15:42Z'),
      status: 'ok',
    });
    const [p] = await t.db
      .insert(papers)
      .values([
        {
          arxivId: '2611.04001',
          title: 'A',
          titleKey: 'a',
          rulesFamily: true,
          topics: ['algorithm', 'math-code'],
          firstSeenAt: at('2026-11-21T06:16:00Z'),
          newsAt: at('2026-11-21T06:16:00Z'),
        },
        {
          arxivId: '2611.04002',
          title: 'B',
          titleKey: 'b',
          rulesFamily: true,
          topics: ['algorithm'],
          firstSeenAt: at('2026-11-20T06:16:00Z'),
          newsAt: at('2026-11-20T06:16:00Z'),
        },
        {
          arxivId: '2611.04003',
          title: 'C',
          titleKey: 'c',
          rulesFamily: false,
          topics: ['algorithm'],
          firstSeenAt: at('2026-11-21T06:16:00Z'),
          newsAt: at('2026-11-21T06:16:00Z'),
        },
        // Stored today without becoming news (a seed import or a backfill): not activity.
        {
          arxivId: '2611.04004',
          title: 'D',
          titleKey: 'd',
          rulesFamily: false,
          firstSeenAt: at('2026-11-21T07:00:00Z'),
        },
        // Imported family papers (not news, no topic): one without an HTML version, one whose fetch failed.
        {
          arxivId: '2611.04005',
          title: 'E',
          titleKey: 'e',
          rulesFamily: true,
          firstSeenAt: at('2026-11-01T07:00:00Z'),
        },
        {
          arxivId: '2611.04006',
          title: 'F',
          titleKey: 'f',
          rulesFamily: true,
          firstSeenAt: at('2026-11-01T07:00:00Z'),
        },
      ])
      .returning({ id: papers.id });
    const ids = await t.db.select({ id: papers.id, arxivId: papers.arxivId }).from(papers);
    const id = (arxivId: string) => ids.find((r) => r.arxivId === arxivId)!.id;
    // Each paper counts once, by its newest version: A failed on v1 and was read on v2; B has no text yet.
    await t.db.insert(paperTexts).values([
      {
        paperId: id('2611.04001'),
        version: 1,
        status: 'failed',
        reason: 'HTTP 503',
        url: 'https://arxiv.org/html/2611.04001v1',
        attempts: 1,
      },
      { paperId: id('2611.04001'), version: 2, status: 'ok', url: 'https://arxiv.org/html/2611.04001v2' },
      {
        paperId: id('2611.04005'),
        version: 1,
        status: 'no-html',
        reason: 'HTTP 404',
        url: 'https://arxiv.org/html/2611.04005v1',
      },
      {
        paperId: id('2611.04006'),
        version: 1,
        status: 'failed',
        reason: 'HTTP 503',
        url: 'https://arxiv.org/html/2611.04006v1',
        attempts: 3,
      },
      // Not a family paper: not counted.
      { paperId: id('2611.04003'), version: 1, status: 'ok', url: 'https://arxiv.org/html/2611.04003v1' },
    ]);
    await t.db.insert(summaries).values([
      {
        paperId: p!.id,
        lang: 'en',
        promptVersion: PROMPT_VERSION,
        status: 'failed',
        attempts: 1,
        retryAt: at('2026-11-21T08:20:00Z'),
        createdAt: at('2026-11-21T06:20:00Z'),
      },
      {
        paperId: p!.id,
        lang: 'zh',
        promptVersion: PROMPT_VERSION,
        status: 'failed',
        attempts: 4,
        retryAt: null,
        createdAt: at('2026-11-21T06:20:00Z'),
      },
    ]);
    await recordSpend(t.db, 0.25, at('2026-11-21T06:20:00Z'));
    await t.db.insert(jobRuns).values({
      job: 'summarize-pending',
      startedAt: at('2026-11-21T06:16:00Z'),
      finishedAt: at('2026-11-21T06:16:01Z'),
      status: 'failed',
      error: 'Summaries stopped: the model API refuses the configuration (404 not_found_error: model: claude-x).',
    });
    await t.db.insert(channels).values({ channelId: '100', guildId: 'g1' });
    await t.db.insert(deliveries).values([
      {
        channelId: '100',
        digestKey: '2026-11-20',
        part: 0,
        nonce: 'n1',
        status: 'sent',
        payload: {},
        sentAt: at('2026-11-20T09:00:00Z'),
      },
      {
        channelId: '100',
        digestKey: '2026-11-21',
        part: 0,
        nonce: 'n2',
        status: 'sent',
        payload: {},
        sentAt: at('2026-11-21T09:00:00Z'),
      },
    ]);
  });

  it("reports a failing feed, the last and next poll, today's papers, LLM spend, summaries waiting for a retry, full texts and digests", async () => {
    const text = replyText(
      await runCommand(
        status,
        commandInput(undefined, {}, { canManage: false }),
        commandDeps(t.db, () => now),
      ),
    );
    expect(text).toMatch(/✅ \*\*arXiv cs\.LG\*\*: ok · last success <t:\d+:f>/);
    // The streak and the error once each (the failing detail carries both).
    expect(text).toMatch(
      /❌ \*\*HF\*\*: failing · 3 failed polls in a row: HTTP 503 after 3 attempts · last success <t:\d+:f> \(<t:\d+:R>\)\n/,
    );
    expect(text.match(/in a row/g)).toHaveLength(1);
    expect(text).toMatch(/Last poll\n<t:\d+:f> \(<t:\d+:R>\) · ok in 42 s/);
    expect(text).toMatch(/Next poll\nscheduler not running in this process \(POLL_CRON `15 6 \* \* \*`/);
    expect(text).toMatch(/2 new, 1 GRPO-family/);
    expect(text).toMatch(/\$0\.2500 of \$1\.00 today \(25%\)/);
    expect(text).toMatch(/1 message sent today, 2 in total · 1 channel/);
    const [family] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(papers)
      .where(eq(papers.grpoFamily, true));
    // The family's one count, and the full-text line saying which part of it it counts.
    expect(text).toContain(
      `GRPO family\n${family!.n} papers in the GRPO family (the count /topics, /family list and /trends give)`,
    );
    expect(text).toContain(
      `Full texts (the 4 of the ${family!.n} GRPO-family papers with an arXiv id)\n1 read · 1 without an HTML version (abstract used) · 1 failed to fetch · 1 not fetched yet (each poll reads a few; \`grpo-digest fetch-text\` backfills)`,
    );
    expect(text).toMatch(
      /Summaries\n1 waiting to be retried · 1 failed for good \(extractive summary shown\) · last run <t:\d+:f> \(<t:\d+:R>\) · failed · Summaries stopped: the model API refuses the configuration \(404/,
    );
  });

  it("shows the scheduler's next poll when one runs", async () => {
    const next = at('2026-11-22T06:15:00Z');
    const reply = await runCommand(
      status,
      commandInput(undefined, {}),
      commandDeps(t.db, () => now, { nextRuns: () => ({ 'poll-feeds': next }) }),
    );
    expect(replyText(reply)).toContain(`Next poll\n<t:${next.getTime() / 1000}:f>`);
  });

  it('lists every topic with its GRPO-family paper count', async () => {
    const reply = await runCommand(
      topics,
      commandInput(undefined, {}),
      commandDeps(t.db, () => now),
    );
    const fields = reply.embeds![0]!.fields!;
    expect(fields).toHaveLength(14);
    expect(fields.find((f) => f.name.includes('`algorithm`'))!.name).toMatch(/2 papers$/);
    expect(fields.find((f) => f.name.includes('`math-code`'))!.name).toMatch(/1 paper$/);
    expect(fields.find((f) => f.name.includes('`survey`'))!.name).toMatch(/0 papers$/);
    expect(reply.embeds![0]!.description).toMatch(/^4 GRPO-family papers/);
  });

  it('renders in the console with times as UTC', async () => {
    const text = await answerLine(
      '/status',
      commandDeps(t.db, () => now),
    );
    expect(text).toContain('last success 2026-11-21 06:15 UTC');
    expect(
      await answerLine(
        '/topics',
        commandDeps(t.db, () => now),
      ),
    ).toContain('Efficient reasoning');
  });
});
