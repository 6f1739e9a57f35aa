/**
 * The language-model port: what the summariser, /ask and the relevance judge may ask of a model
 * API. Only src/services/llm/anthropic.ts implements it with the SDK; everything else receives an `Llm` (or
 * null without a key) from the composition root, and tests point the real implementation at a local
 * fake. The message shapes are the Messages API's, re-exported here so no other module imports the SDK.
 */
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages/messages';
import type { MessageBatch, MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';
import { redactSecrets } from '../errors.ts';

export type { Message, MessageBatch, MessageBatchIndividualResponse, MessageCreateParamsNonStreaming };

/**
 * Per-call limits. `deadlineMs` bounds the whole call, the client's retries and their waits included
 * (the SDK's own `timeout` covers one attempt up to the response headers only: a body that stalls
 * would wait for ever). A chat answer passes a short deadline; the nightly run keeps the defaults.
 */
export interface CallOptions {
  deadlineMs?: number;
  /** One attempt (defaults to half the deadline, so one retry fits after a hang). */
  timeoutMs?: number;
  maxRetries?: number;
  /** The caller's abort (Ctrl-C, a shorter overall deadline from `AbortSignal.timeout`). */
  signal?: AbortSignal;
}

export interface Llm {
  /** The configured model (ANTHROPIC_MODEL). */
  readonly model: string;
  /** One Messages API call (the client retries 408/409/429/5xx itself, honouring retry-after). Throws `LlmError`. */
  create(params: MessageCreateParamsNonStreaming, opts?: CallOptions): Promise<Message>;
  /** Message Batches: half price, results within 24 h. Each throws `LlmError`. */
  createBatch(requests: { custom_id: string; params: MessageCreateParamsNonStreaming }[]): Promise<MessageBatch>;
  retrieveBatch(id: string): Promise<MessageBatch>;
  /** The results of an ended batch (read from its absolute `results_url`); reading them may throw `LlmError` too. */
  batchResults(id: string): Promise<AsyncIterable<MessageBatchIndividualResponse>>;
}

/**
 * Why a call failed, in the terms its caller acts on:
 * - `unavailable`: overload, rate limits, 5xx, the network, a response cut off or unreadable, or no
 *   answer within the deadline (`slow`): the same request may work in a few minutes;
 * - `rejected`: the API refused this request (400, 413, 422). Maybe its content (one paper), maybe
 *   something every request shares: the run guard (guard.ts) tells them apart by repetition;
 * - `config`: nothing will work until an operator acts: the key, permissions, billing, or a model that
 *   does not exist or does not support what we ask of it (structured outputs);
 * - `gone`: the thing asked about does not exist (a batch unknown to this key, or archived);
 * - `aborted`: the caller gave up (its own signal), not the API.
 */
export interface LlmFailure {
  kind: 'unavailable' | 'rejected' | 'config' | 'gone' | 'aborted';
  /** `unavailable` only: no answer came within the deadline or the attempt timeout. */
  slow: boolean;
  /** HTTP status, when there was a response. */
  status: number | null;
  /** What the API or the network said, bounded; never contains the key. */
  message: string;
}

/** What the adapter throws for every failed call: the SDK's error classified once, here. */
export class LlmError extends Error {
  override name = 'LlmError';
  constructor(
    readonly failure: LlmFailure,
    options?: { cause?: unknown },
  ) {
    super(failure.message, options);
  }
}

/** The failure behind an error, or undefined when the error is not the model API's (a bug: rethrow it). */
export const failureOf = (err: unknown): LlmFailure | undefined => (err instanceof LlmError ? err.failure : undefined);

/** A failure's message, bounded and with secrets redacted (an upstream may echo the key), for logs, stored errors and users. */
export const errorMessage = (err: unknown): string =>
  redactSecrets(err instanceof Error ? err.message : String(err)).slice(0, 500);
