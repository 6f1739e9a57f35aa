import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../../src/services/sources/http.ts';
import {
  fetchCitationBatch,
  parseS2Batch,
  S2FormatError,
  type S2Options,
} from '../../../../src/services/sources/semantic-scholar.ts';
import { startFakeS2, type FakeS2 } from '../../../fakes/semantic-scholar.ts';

describe('parseS2Batch', () => {
  it('lines the answer up with the ids: counts, or null for unknown and malformed entries', () => {
    const body = JSON.stringify([
      { paperId: 'abc', citationCount: 12, influentialCitationCount: 3, externalIds: { ArXiv: '2402.03300' } },
      null,
      { paperId: 'def', citationCount: 'many' },
      { paperId: 'ghi', citationCount: 4 },
    ]);
    expect(parseS2Batch(body, 4)).toEqual([
      { s2PaperId: 'abc', citationCount: 12, influentialCount: 3 },
      null,
      null,
      { s2PaperId: 'ghi', citationCount: 4, influentialCount: 0 },
    ]);
  });

  it('refuses what cannot be lined up: not JSON, not an array, a different length', () => {
    expect(() => parseS2Batch('<html>busy</html>', 1)).toThrow(S2FormatError);
    expect(() => parseS2Batch('{"error":"x"}', 1)).toThrow(/expected an array/);
    expect(() => parseS2Batch('[null]', 2)).toThrow(/1 entries for 2 ids/);
  });
});

describe('fetchCitationBatch against the fake', () => {
  let fake: FakeS2;
  const opts = (over: Partial<S2Options> = {}): S2Options => ({
    apiBase: fake.base,
    http: { userAgent: 'grpo-digest-test', now: () => new Date(0), timeoutMs: 2_000 },
    ...over,
  });
  beforeAll(async () => {
    fake = await startFakeS2({
      papers: { '2402.03300': { citationCount: 9, influentialCitationCount: 1 } },
      windowMs: 0,
    });
  });
  afterAll(() => fake.close());

  it('POSTs the ids with the fields as a query parameter, and sends no key header without a key', async () => {
    const r = await fetchCitationBatch(['2402.03300', '2611.00001'], opts());
    expect(r).toEqual({
      counts: [{ s2PaperId: 's2-2402.03300', citationCount: 9, influentialCount: 1 }, null],
      allUnknown: false,
    });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      apiKey: undefined,
      ids: ['ARXIV:2402.03300', 'ARXIV:2611.00001'],
    });
  });

  it('reads a 404 to the batch as none known, and throws a 429 with its Retry-After, not retried', async () => {
    fake.set({ unknownBatch: '404' });
    await expect(fetchCitationBatch(['2611.00001'], opts())).resolves.toEqual({ counts: [null], allUnknown: true });
    fake.set({ script: [{ status: 429, retryAfter: '5' }] });
    const before = fake.requests.length;
    const err = await fetchCitationBatch(['2402.03300'], opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ httpStatus: 429, retryAfterMs: 5_000 });
    expect((err as Error).message).toMatch(/^POST /);
    expect(fake.requests.length - before).toBe(1);
  });

  it('refuses more ids than one batch may carry before sending anything', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => `2611.${String(i).padStart(5, '0')}`);
    await expect(fetchCitationBatch(ids, opts())).rejects.toThrow(RangeError);
  });
});
