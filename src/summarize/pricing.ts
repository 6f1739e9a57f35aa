/**
 * List prices in US dollars per million tokens, from Anthropic's pricing page (checked 2026-11).
 * Cache writes (5-minute TTL) cost 1.25x input, cache reads 0.1x input, and the Message Batches API
 * halves everything. Add a row when configuring a model that is not listed: an unknown model is
 * priced as the most expensive row, so the daily budget errs on the side of spending less.
 */
export const PRICES: Readonly<Record<string, { input: number; output: number }>> = {
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-haiku-3-5': { input: 0.8, output: 4 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-6': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
};

const CACHE_WRITE = 1.25;
const CACHE_READ = 0.1;
const BATCH = 0.5;

/** Token counts as the API reports them; `input` excludes the cached and cache-written tokens. */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const NO_USAGE: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite,
});

/** The price row for a model id, ignoring a date suffix (`claude-haiku-4-5-20251001`). */
export function priceFor(model: string): { input: number; output: number; known: boolean } {
  const base = model.replace(/-\d{8}$/, '');
  const row = PRICES[base];
  if (row) return { ...row, known: true };
  const dearest = Object.values(PRICES).reduce((a, b) => (b.output > a.output ? b : a));
  return { ...dearest, known: false };
}

/** What a call cost, in dollars, rounded to the stored precision (6 decimals). */
export function costUsd(model: string, u: TokenUsage, opts: { batch?: boolean } = {}): number {
  const p = priceFor(model);
  const dollars = (u.input * p.input + u.cacheWrite * p.input * CACHE_WRITE + u.cacheRead * p.input * CACHE_READ + u.output * p.output) / 1e6;
  return round6(dollars * (opts.batch ? BATCH : 1));
}

/**
 * An upper bound for one call before it is made: about one token per 3 characters of prompt (English
 * averages nearer 4; Chinese and LaTeX run denser), the whole prompt written to the cache, and the
 * full `max_tokens` of output. Used to stop before the budget is passed, never to record spend.
 */
export function estimateCostUsd(model: string, promptChars: number, maxTokens: number, opts: { batch?: boolean } = {}): number {
  return costUsd(model, { input: 0, cacheWrite: Math.ceil(promptChars / 3), cacheRead: 0, output: maxTokens }, opts);
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
