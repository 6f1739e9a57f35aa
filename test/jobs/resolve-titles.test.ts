import { eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { papers } from '../../db/schema.ts';
import type { JobDeps } from '../../jobs/index.ts';
import { httpOptions } from '../../jobs/poll-feeds.ts';
import { resolveTitles } from '../../jobs/resolve-titles.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { titleKey } from '../../src/core/papers/identity.ts';
import { createTestDb } from '../helpers/db.ts';
import { apiFeed } from '../helpers/feed-builders.ts';
import { startFeedServer, type FeedServer } from '../helpers/feed-server.ts';

describe('resolveTitles', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let server: FeedServer;
  let deps: JobDeps;
  const known = 'Seed Paper: Clipping the Group Advantage';
  const unknown = 'A Title arXiv Has Never Heard Of';

  beforeAll(async () => {
    t = await createTestDb();
    server = await startFeedServer((url) => {
      if (url.pathname !== '/api/query') return undefined;
      const q = url.searchParams.get('search_query') ?? '';
      // arXiv's title search is loose: it also returns other papers, which must not be taken for a match.
      return {
        body: q.includes('Clipping the Group Advantage')
          ? apiFeed([
              { id: '2509.01234', v: 2, title: 'Clipping Group Advantages Considered Harmful' },
              {
                id: '2508.04321',
                v: 3,
                title: 'Seed paper: clipping the group advantage',
                abstract: 'The real abstract.',
              },
            ])
          : apiFeed([{ id: '2501.00001', title: 'Something Else Entirely' }]),
      };
    });
    deps = buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => new Date('2026-11-21T06:30:00Z'),
      config: loadConfig({ ARXIV_API_BASE: `${server.base}/api/query`, ARXIV_REQUEST_INTERVAL_MS: '0' }),
    });
    await t.db.insert(papers).values([known, unknown].map((title) => ({ title, titleKey: titleKey(title) })));
  });

  it('gives a title-only paper its id only on an exact title match, and remembers misses', async () => {
    const http = httpOptions(deps).arxivHttp;
    expect(await resolveTitles(deps, { limit: 10, arxivHttp: http })).toEqual({
      looked: 2,
      resolved: 1,
      failed: 0,
      firstError: null,
    });
    const [row] = await t.db.select().from(papers).where(eq(papers.arxivId, '2508.04321'));
    expect(row).toMatchObject({ arxivVersion: 3, abstract: 'The real abstract.' });
    expect(await t.db.select().from(papers).where(eq(papers.arxivId, '2509.01234'))).toEqual([]);
    expect(await t.db.$count(papers)).toBe(2);

    const requests = server.requests.length;
    expect(await resolveTitles(deps, { limit: 10, arxivHttp: http })).toEqual({
      looked: 0,
      resolved: 0,
      failed: 0,
      firstError: null,
    });
    expect(server.requests.length).toBe(requests);
  });
});
