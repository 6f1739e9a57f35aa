import Anthropic from '@anthropic-ai/sdk';
import type { Config } from '../config.ts';

export type { Anthropic };

/**
 * The SDK client, or null without an API key (then only extractive fallbacks exist).
 * The key is always passed explicitly: without one the 1.x SDK would walk a credential chain
 * (profiles, workload identity) we never want to pick up by accident.
 * The SDK retries 408/409/429/5xx/529 and connection errors itself, honouring retry-after.
 */
export function createAnthropic(c: Config['anthropic'], opts: { maxRetries?: number; timeoutMs?: number } = {}): Anthropic | null {
  if (!c.apiKey) return null;
  return new Anthropic({
    apiKey: c.apiKey,
    ...(c.baseUrl ? { baseURL: c.baseUrl } : {}),
    maxRetries: opts.maxRetries ?? 3,
    timeout: opts.timeoutMs ?? 120_000,
  });
}

/** How a failed API call affects the run. */
export type ApiFailure =
  /** This request is wrong for this paper (400): record the paper as failed. */
  | 'paper'
  /** Rate limits, overload, 5xx or the network after the SDK's retries: leave the paper for the next run. */
  | 'transient'
  /** A bad key, a missing model, no permission: nothing else will work either; stop the run. */
  | 'fatal';

export function classifyApiError(err: unknown): ApiFailure {
  if (!(err instanceof Anthropic.APIError)) return 'fatal';
  const s = err.status; // undefined for connection errors and timeouts
  if (s === 400 || s === 413 || s === 422) return 'paper';
  if (s === 401 || s === 402 || s === 403 || s === 404) return 'fatal';
  return 'transient';
}

export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 500);
