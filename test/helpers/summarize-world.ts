import pino from 'pino';
import { beforeAll } from 'vitest';
import { getSummary } from '../../db/queries/summaries.ts';
import { papers, type Paper } from '../../db/schema.ts';
import type { JobDeps } from '../../jobs/index.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { PROMPT_VERSION } from '../../src/services/summarize/schema.ts';
import { createTestDb } from './db.ts';
import type { FakeAnthropic } from './fake-anthropic.ts';

/** The clock of summary tests: the morning run of 2026-11-21. */
export const NOW = new Date('2026-11-21T06:45:00Z');
type TestDb = Awaited<ReturnType<typeof createTestDb>>;
type Body = { messages: { content: { text: string }[] }[] };

/**
 * A fresh database for one describe block, with job deps over the fake Anthropic API (env overrides
 * per call), a way to add GRPO-family papers, and their stored summary.
 */
export function useSummaryWorld(fake: () => FakeAnthropic) {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  const deps = (env: Record<string, string> = {}): JobDeps =>
    buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => NOW,
      config: loadConfig({
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake().base,
        LLM_BATCH_POLL_MS: '0',
        ...env,
      }),
    });
  let n = 0;
  const addPaper = async (fields: Partial<typeof papers.$inferInsert> = {}): Promise<Paper> => {
    const arxivId = fields.arxivId ?? `2611.${String(10000 + ++n + Math.floor(Math.random() * 80000))}`;
    const [row] = await t.db
      .insert(papers)
      .values({
        arxivId,
        titleKey: `paper ${arxivId}`,
        title: `Paper ${arxivId}: group relative policy optimization`,
        abstract: 'We study GRPO. We clip per sequence. Accuracy improves on AIME.',
        rulesFamily: true,
        newsAt: NOW,
        ...fields,
      })
      .returning();
    return row!;
  };
  const summary = (p: Paper, lang = 'en') => getSummary(t.db, p.id, lang, PROMPT_VERSION);
  const userText = (body: Body) => body.messages[0]!.content.map((c) => c.text).join('\n');
  const requestsFor = (p: Paper) =>
    fake()
      .messageRequests()
      .filter((r) => userText(r.body).includes(p.arxivId!));
  return { db: () => t, deps, addPaper, summary, userText, requestsFor };
}
