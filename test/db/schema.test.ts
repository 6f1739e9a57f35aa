import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { papers } from '../../db/schema.ts';
import { createTestDb } from '../helpers/db.ts';

describe('database schema', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    t = await createTestDb();
  });

  it('has pg_trgm installed by the first migration', async () => {
    const rows = await t.sql`select extname from pg_extension where extname = 'pg_trgm'`;
    expect(rows).toHaveLength(1);
  });

  it('creates every table the product needs', async () => {
    const rows = await t.sql<{ tablename: string }[]>`select tablename from pg_tables where schemaname = 'public'`;
    const names = rows.map((r) => r.tablename).sort();
    expect(names).toEqual([
      'app_state', 'channels', 'citations', 'deliveries', 'feed_state', 'guilds', 'job_runs', 'notes',
      'notifications_sent', 'paper_sources', 'papers', 'queue_items', 'subscribers', 'summaries',
      'user_subscriptions', 'votes',
    ]);
  });

  it('maintains the weighted search vector from title, abstract and Chinese terms', async () => {
    await t.db.insert(papers).values({ titleKey: 'k', title: 'Group Sequence Policy Optimization', abstract: 'sequence-level clipping', searchZh: '群组 组序' });
    const [row] = await t.db
      .select({ hit: sql<boolean>`${papers.search} @@ websearch_to_tsquery('english', 'clipping')`, zh: sql<boolean>`${papers.search} @@ to_tsquery('simple', '群组')` })
      .from(papers);
    expect(row).toEqual({ hit: true, zh: true });
  });
});
