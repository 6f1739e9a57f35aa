import type { Message, MessageCreateParamsNonStreaming } from '../../core/llm/port.ts';
import { DEAREST, modelInfo } from './models.ts';

/**
 * What calls cost, from the list prices in models.ts. Cache writes (5-minute TTL) cost 1.25x input,
 * cache reads a model's cache fraction of input (0.1x for most), and the Message Batches API halves
 * everything. Pure: every module that spends (summaries, /ask, the relevance judge) prices here.
 */
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
  input: a.input + b.input,
  output: a.output + b.output,
  cacheRead: a.cacheRead + b.cacheRead,
  cacheWrite: a.cacheWrite + b.cacheWrite,
});

export function usageOf(m: Pick<Message, 'usage'>): TokenUsage {
  const u = m.usage;
  return {
    input: u.input_tokens ?? 0,
    output: u.output_tokens ?? 0,
    cacheRead: u.cache_read_input_tokens ?? 0,
    cacheWrite: u.cache_creation_input_tokens ?? 0,
  };
}

/** The price row for a model id (date suffixes and aliases ignored); an unknown model gets the dearest row. */
export function priceFor(model: string): { input: number; output: number; cacheRead: number; known: boolean } {
  const row = modelInfo(model);
  const p = row ?? DEAREST;
  return { input: p.input, output: p.output, cacheRead: p.cacheRead ?? CACHE_READ, known: Boolean(row) };
}

/** What a call cost, in dollars, rounded to the stored precision (6 decimals). */
export function costUsd(model: string, u: TokenUsage, opts: { batch?: boolean } = {}): number {
  const p = priceFor(model);
  const dollars =
    (u.input * p.input +
      u.cacheWrite * p.input * CACHE_WRITE +
      u.cacheRead * p.input * p.cacheRead +
      u.output * p.output) /
    1e6;
  return round6(dollars * (opts.batch ? BATCH : 1));
}

/**
 * An upper bound for one call before it is made: about one token per 3 characters of prompt (English
 * averages nearer 4; Chinese and LaTeX run denser), the whole prompt written to the cache, and the
 * full `max_tokens` of output. Used to stop before the budget is passed, never to record spend.
 */
export function estimateCostUsd(
  model: string,
  promptChars: number,
  maxTokens: number,
  opts: { batch?: boolean } = {},
): number {
  return costUsd(model, { input: 0, cacheWrite: Math.ceil(promptChars / 3), cacheRead: 0, output: maxTokens }, opts);
}

/** The same bound for a request as it will be sent: its system and message text, and its `max_tokens`. */
export function estimateRequestUsd(params: MessageCreateParamsNonStreaming, opts: { batch?: boolean } = {}): number {
  return estimateCostUsd(params.model, promptChars(params), params.max_tokens, opts);
}

/** Characters of text a request sends (system and every message). */
export function promptChars(params: Pick<MessageCreateParamsNonStreaming, 'system' | 'messages'>): number {
  const text = (c: unknown): number => {
    if (typeof c === 'string') return c.length;
    if (Array.isArray(c))
      return c.reduce((n: number, b: { text?: unknown }) => n + (typeof b?.text === 'string' ? b.text.length : 0), 0);
    return 0;
  };
  return text(params.system) + params.messages.reduce((n, m) => n + text(m.content), 0);
}

export const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;
