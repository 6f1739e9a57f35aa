import Anthropic from '@anthropic-ai/sdk';
import type { Config } from '../config.ts';
import type { Llm, LlmFailure } from './port.ts';

/**
 * The one place the Anthropic SDK client is built: the `Llm` port over it, or null without an API
 * key (then only extractive fallbacks exist). The key is always passed explicitly: without one the
 * 1.x SDK would walk a credential chain (profiles, workload identity) we never want to pick up by
 * accident. Defaults suit the nightly summary run; a call may ask for shorter limits.
 */
export function createLlm(c: Config['anthropic']): Llm | null {
  if (!c.apiKey) return null;
  const client = new Anthropic({ apiKey: c.apiKey, ...(c.baseUrl ? { baseURL: c.baseUrl } : {}), maxRetries: 3, timeout: 120_000 });
  return {
    model: c.model,
    create: (params, o = {}) => client.messages.create(params, {
      ...(o.timeoutMs !== undefined && { timeout: o.timeoutMs }),
      ...(o.maxRetries !== undefined && { maxRetries: o.maxRetries }),
      ...(o.signal && { signal: o.signal }),
    }),
    createBatch: (requests) => client.messages.batches.create({ requests }),
    retrieveBatch: (id) => client.messages.batches.retrieve(id),
    batchResults: (id) => client.messages.batches.results(id),
    failureOf,
  };
}

function failureOf(err: unknown): LlmFailure {
  if (!(err instanceof Anthropic.APIError)) return 'fatal';
  const s = err.status; // undefined for connection errors and timeouts
  if (s === 400 || s === 413 || s === 422) return 'paper';
  if (s === 401 || s === 402 || s === 403 || s === 404) return 'fatal';
  return 'transient';
}
