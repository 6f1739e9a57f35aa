import { describe, expect, it } from 'vitest';
import { assessAttempts } from '../../jobs/index.ts';
import { assessPoll } from '../../jobs/poll-feeds.ts';
import { shortUrl } from '../../src/services/sources/http.ts';

describe('whether a run did its work', () => {
  const feed = (status: 'ok' | 'failed', error: string | null = null) => ({
    status,
    fetched: 0,
    new: 0,
    updated: 0,
    family: 0,
    skipped: 0,
    health: status === 'ok' ? 'ok' : 'failing',
    error,
  });

  it('calls a poll failed when every feed failed, and says the first cause', () => {
    const stats = { feeds: { 'arxiv-rss:cs.LG': feed('failed', 'ENOTFOUND'), 'hf-daily': feed('failed', 'HTTP 503') } };
    expect(assessPoll(stats)).toEqual({
      status: 'failed',
      error: 'every feed failed (2): arxiv-rss:cs.LG: ENOTFOUND',
    });
  });

  it('calls a poll partial when some feeds failed, and ok when none did', () => {
    expect(assessPoll({ feeds: { a: feed('ok'), b: feed('failed', 'HTTP 503') } })).toEqual({
      status: 'partial',
      error: '1 of 2 feeds failed: b: HTTP 503',
    });
    expect(assessPoll({ feeds: { a: feed('ok') } })).toBeUndefined();
  });

  it('never calls a run with nothing to do failed', () => {
    expect(assessAttempts(0, [], ['fetch', 'fetches'])).toBeUndefined();
    expect(assessAttempts(3, ['x', 'x', 'x'], ['fetch', 'fetches'])).toMatchObject({ status: 'failed' });
  });
});

describe('a URL in an error message', () => {
  it('drops a long query so that the cause stays in view, and keeps a short one', () => {
    const api = `https://export.arxiv.org/api/query?search_query=${'ti%3AGRPO+OR+'.repeat(40)}`;
    expect(shortUrl(api)).toBe('https://export.arxiv.org/api/query (with a 533-character query)');
    const hf = 'https://huggingface.co/api/daily_papers?date=2026-11-28&p=0&limit=100';
    expect(shortUrl(hf)).toBe(hf);
  });
});
