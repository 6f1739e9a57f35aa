import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryAt } from '../../../../src/services/llm/backoff.ts';
import { RunGuard } from '../../../../src/services/llm/guard.ts';
import type { LlmFailure } from '../../../../src/core/llm/port.ts';

const failure = (kind: LlmFailure['kind'], message = 'x', status: number | null = null): LlmFailure => ({
  kind,
  message,
  status,
  slow: false,
});
const rejected = (message: string) => failure('rejected', message, 400);

describe('RunGuard', () => {
  it('charges an answer to its item and clears the streaks', () => {
    const g = new RunGuard<string>();
    expect(g.record('a', null)).toEqual({ own: ['a'], run: [] });
    expect(g.stopped).toBeNull();
  });

  it("holds one rejection until the next result: a different result makes it the item's", () => {
    const g = new RunGuard<string>();
    expect(g.record('a', rejected('prompt too long: 250000 tokens'))).toEqual({ own: [], run: [] });
    expect(g.record('b', null)).toEqual({ own: ['a', 'b'], run: [] });
    expect(g.record('c', rejected('prompt too long'))).toEqual({ own: [], run: [] });
    expect(g.record('d', rejected('image too large'))).toEqual({ own: ['c'], run: [] });
    expect(g.finish()).toEqual(['d']);
    expect(g.stopped).toBeNull();
  });

  it("makes the same rejection on consecutive items the run's, and stops", () => {
    const g = new RunGuard<string>();
    g.record('a', rejected('output_config.format: schema item 12 is invalid'));
    expect(g.record('b', rejected('output_config.format: schema item 13 is invalid'))).toEqual({
      own: [],
      run: ['a', 'b'],
    });
    expect(g.stopped).toMatchObject({
      kind: 'systematic',
      message: expect.stringMatching(/rejected 2 requests in a row the same way/),
    });
    // Calls that were in flight and come back the same way are the run's too.
    expect(g.record('c', rejected('output_config.format: schema item 14 is invalid'))).toEqual({ own: [], run: ['c'] });
  });

  it('stops at once on a configuration failure, and after three outages in a row', () => {
    const c = new RunGuard<string>();
    expect(c.record('a', failure('config', 'model: claude-x not found'))).toEqual({ own: [], run: ['a'] });
    expect(c.stopped).toEqual({ kind: 'config', message: 'model: claude-x not found' });
    const u = new RunGuard<string>();
    u.record('a', failure('unavailable'));
    u.record('b', failure('unavailable'));
    expect(u.stopped).toBeNull();
    u.record('c', failure('unavailable', '529 overloaded_error: Overloaded'));
    expect(u.stopped).toMatchObject({ kind: 'unavailable' });
  });
});

describe('retryAt', () => {
  it('waits longer after each failed attempt and gives up after the last', () => {
    const now = new Date('2026-11-21T06:45:00Z');
    const waits = [1, 2, 3].map((n) => (retryAt(n, now)!.getTime() - now.getTime()) / 3_600_000);
    expect(waits).toEqual([2, 8, 32]);
    expect(retryAt(MAX_ATTEMPTS, now)).toBeNull();
  });
});
