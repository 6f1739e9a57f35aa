/**
 * Semantic Scholar's Graph API batch endpoint: citation counts for many arXiv papers in one request.
 *
 *   POST {S2_API_BASE}/paper/batch?fields=citationCount,influentialCitationCount,externalIds
 *   {"ids": ["ARXIV:2402.03300", ...]}            (at most 500 ids; `fields` is a query parameter)
 *
 * The answer is a JSON array in the order of the ids, `null` where Semantic Scholar does not know
 * the id. A key goes in the `x-api-key` header (never in the URL, so no error message names it).
 * One call here is one request: the caller (src/services/citations/refresh.ts) owns the retries, so
 * it can count every 429 of a refresh and stop for the day.
 */
import { z } from 'zod';
import { s2ArxivId } from '../../core/papers/citation-counts.ts';
import { describeBody } from './body.ts';
import { HttpError, postText, type HttpOptions } from './http.ts';

/** Semantic Scholar refuses more ids than this in one batch request. */
export const S2_MAX_BATCH = 500;

const FIELDS = 'citationCount,influentialCitationCount,externalIds';

/** 500 small records are well under 200 KB; a larger answer is not the batch we asked for. */
const MAX_BYTES = 4 * 1024 * 1024;

/** What Semantic Scholar says of one paper. */
export interface S2Counts {
  s2PaperId: string | null;
  citationCount: number;
  influentialCount: number;
}

const count = z.number().int().min(0).max(100_000_000);

const Item = z.looseObject({
  paperId: z.string().max(100).nullish(),
  citationCount: count,
  influentialCitationCount: count.nullish(),
});

/** The answer did not have the batch's shape (not JSON, not an array, not one entry per id). */
export class S2FormatError extends Error {
  override name = 'S2FormatError';
}

/**
 * One entry per id, in order: the counts, or null when Semantic Scholar does not know the paper (or
 * its entry is malformed: one bad entry never fails the batch). Throws S2FormatError when the
 * answer cannot be lined up with the ids.
 */
export function parseS2Batch(json: string, ids: number): (S2Counts | null)[] {
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    throw new S2FormatError(`Semantic Scholar batch: body is not JSON (${describeBody(json)})`);
  }
  if (!Array.isArray(body))
    throw new S2FormatError(`Semantic Scholar batch: expected an array, got ${body === null ? 'null' : typeof body}`);
  if (body.length !== ids)
    throw new S2FormatError(`Semantic Scholar batch: ${body.length} entries for ${ids} ids, cannot line them up`);
  return body.map((raw) => {
    const item = Item.safeParse(raw);
    if (!item.success) return null;
    return {
      s2PaperId: item.data.paperId ?? null,
      citationCount: item.data.citationCount,
      influentialCount: item.data.influentialCitationCount ?? 0,
    };
  });
}

export interface S2Options {
  apiBase: string;
  apiKey?: string;
  /** The shared HTTP options (User-Agent, timeout, clock, pacer, signal); retries are the caller's. */
  http: HttpOptions;
}

/**
 * The counts of these arXiv papers (ids without version), one entry per id, null where unknown.
 * A 404 to the batch is read as "none of these ids is known" (`allUnknown`). Throws HttpError for any
 * other refusal (429 with its Retry-After, 5xx, timeout) and S2FormatError for a malformed answer.
 */
export async function fetchCitationBatch(
  arxivIds: readonly string[],
  opts: S2Options,
): Promise<{ counts: (S2Counts | null)[]; allUnknown: boolean }> {
  if (arxivIds.length === 0) return { counts: [], allUnknown: false };
  if (arxivIds.length > S2_MAX_BATCH) throw new RangeError(`at most ${S2_MAX_BATCH} ids per batch`);
  const url = `${opts.apiBase.replace(/\/+$/, '')}/paper/batch?fields=${FIELDS}`;
  const request = {
    body: JSON.stringify({ ids: arxivIds.map(s2ArxivId) }),
    contentType: 'application/json',
    headers: opts.apiKey ? { 'x-api-key': opts.apiKey } : undefined,
  };
  try {
    const res = await postText(url, request, {
      ...opts.http,
      retries: 0,
      accept: 'application/json',
      maxBytes: MAX_BYTES,
    });
    return { counts: parseS2Batch(res.body, arxivIds.length), allUnknown: false };
  } catch (err) {
    if (err instanceof HttpError && err.httpStatus === 404)
      return { counts: arxivIds.map(() => null), allUnknown: true };
    throw err;
  }
}
