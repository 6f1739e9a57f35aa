import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { papers, summaries } from '../../db/schema.ts';
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
      'app_state',
      'channels',
      'citation_counts',
      'citations',
      'deliveries',
      'family_judgements',
      'family_marks',
      'feed_state',
      'guilds',
      'interaction_claims',
      'job_runs',
      'notes',
      'notifications_sent',
      'paper_sources',
      'paper_texts',
      'paper_versions',
      'papers',
      'queue_items',
      'subscribers',
      'summaries',
      'user_subscriptions',
      'version_notices',
      'votes',
    ]);
  });

  it("moves a paper's search revision when its searched text or summaries change, and only then", async () => {
    const [p] = await t.db
      .insert(papers)
      .values({ titleKey: 'k', title: 'Group Sequence Policy Optimization', abstract: 'sequence-level clipping' })
      .returning();
    const rev = async () => (await t.db.select({ r: papers.searchRev }).from(papers).where(eq(papers.id, p!.id)))[0]!.r;
    const first = await rev();
    await t.db.update(papers).set({ hfUpvotes: 12, githubStars: 3 }).where(eq(papers.id, p!.id));
    expect(await rev()).toBe(first);
    await t.db.update(papers).set({ abstract: 'sequence-level clipping, revised' }).where(eq(papers.id, p!.id));
    const second = await rev();
    expect(second).toBeGreaterThan(first);
    await t.db
      .insert(summaries)
      .values({ paperId: p!.id, lang: 'en', promptVersion: 'v', status: 'ok', content: { tldr: 'x' } });
    expect(await rev()).toBeGreaterThan(second);
  });
});
