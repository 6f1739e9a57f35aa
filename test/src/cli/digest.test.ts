import { beforeAll, describe, expect, it } from 'vitest';
import { appState, channels, deliveries, feedState, jobRuns, papers, summaries } from '../../../db/schema.ts';
import type { DigestMessage } from '../../../src/core/digest/types.ts';
import { cli } from '../../helpers/cli.ts';
import { createTestDb } from '../../helpers/db.ts';

const NEWS = new Date('2026-11-21T06:00:00Z');

describe('grpo-digest digest --dry-run', { timeout: 90_000 }, () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let env: Record<string, string>;
  const snapshot = async () =>
    JSON.stringify(
      await Promise.all([
        t.db.select().from(channels),
        t.db.select().from(papers).orderBy(papers.id),
        t.db.select().from(deliveries),
        t.db.select().from(summaries),
        t.db.select().from(feedState),
        t.db.select().from(jobRuns),
        t.db.select().from(appState),
      ]),
    );

  beforeAll(async () => {
    t = await createTestDb();
    env = { DATABASE_URL: t.url };
    await t.db.insert(papers).values([
      {
        arxivId: '2611.30001',
        titleKey: 'a',
        title: 'DAPO-Next: Decoupled Clipping @everyone',
        abstract: 'We decouple the clipping range. It helps on AIME.',
        rulesFamily: true,
        rulesScore: 0.9,
        families: ['DAPO'],
        topics: ['algorithm'],
        newsAt: NEWS,
        hfUpvotes: 9,
      },
      {
        arxivId: '2611.30002',
        titleKey: 'b',
        title: 'Token-level GRPO for agents',
        abstract: 'Agents learn tools with GRPO.',
        rulesFamily: true,
        rulesScore: 0.7,
        families: ['GRPO'],
        topics: ['agents-tools'],
        newsAt: NEWS,
      },
      {
        arxivId: '2611.30003',
        titleKey: 'c',
        title: 'A convolution paper',
        abstract: 'Images.',
        rulesFamily: false,
        rulesScore: 0.1,
        newsAt: NEWS,
      },
    ]);
    await t.db.insert(channels).values({ channelId: '123456', guildId: 'g1', postTime: '09:00', timezone: 'UTC' });
    await t.db.insert(feedState).values({
      feed: 'arxiv-rss:cs.CL',
      health: 'stale',
      healthDetail: 'same 40 papers as on 2026-11-19: arXiv served an old batch',
      lastNewCount: 40,
      lastFamilyCount: 0,
      lastSuccessAt: NEWS,
    });
  });

  it('renders the messages as text and changes nothing', async () => {
    const before = await snapshot();
    const r = await cli(['digest', '--channel', '123456', '--date', '2026-11-21', '--dry-run'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Dry run: digest for channel 123456 on 2026-11-21');
    expect(r.stdout).toContain('=== message 1 of 1');
    expect(r.stdout).toContain('GRPO digest · 2026-11-21 · arXiv cs.CL: ⚠');
    expect(r.stdout).toContain('⚠ arXiv cs.CL looks stale: same 40 papers as on 2026-11-19');
    expect(r.stdout).toContain('■ DAPO-Next: Decoupled Clipping @\u200beveryone');
    expect(r.stdout).toContain('■ Token-level GRPO for agents');
    expect(r.stdout).toContain('TL;DR · *extractive, not LLM-written*');
    expect(r.stdout).toContain('[Vote for reading group]');
    expect(r.stdout).not.toContain('convolution');
    expect(await snapshot()).toBe(before);
  });

  it('prints the messages as JSON', async () => {
    const r = await cli(['digest', '--channel', '123456', '--date', '2026-11-21', '--dry-run', '--json'], env);
    expect(r.code).toBe(0);
    const messages = JSON.parse(r.stdout) as DigestMessage[];
    expect(messages).toHaveLength(1);
    expect(messages[0]!.reply.embeds!.map((e) => e.title)).toEqual([
      'DAPO-Next: Decoupled Clipping @\u200beveryone',
      'Token-level GRPO for agents',
    ]);
    expect(messages[0]!.paperIds).toHaveLength(2);
  });

  it('offers --sample when nothing is new, labelled as a sample, and changes nothing', async () => {
    const before = await snapshot();
    const empty = await cli(['digest', '--channel', '123456', '--date', '2026-11-30', '--dry-run'], env);
    expect(empty.stdout).toContain('No new GRPO-family papers since the last digest.'); // only the stale-feed warning would post
    expect(empty.stdout).not.toContain('Token-level GRPO');
    const r = await cli(['digest', '--channel', '123456', '--date', '2026-11-30', '--dry-run', '--sample'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /Sample, not the real digest: nothing is new for channel 123456 since .* UTC, so this shows what a digest looks like with the 2 latest GRPO-family papers/,
    );
    expect(r.stdout).toContain('■ Token-level GRPO for agents');
    expect(r.stdout).not.toContain('convolution');
    expect(await snapshot()).toBe(before);
  });

  it('says where posting happens without --dry-run, and names /digest setup for an unknown channel', async () => {
    const post = await cli(['digest', '--channel', '123456'], env);
    expect(post.code).toBe(2);
    expect(post.stderr).toContain('/digest now');
    const unknown = await cli(['digest', '--channel', '999', '--dry-run', '--json'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('/digest setup');
  });
});
