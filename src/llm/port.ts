/**
 * The language-model port: what the summariser, /ask and the relevance judge may ask of a model
 * API. Only src/llm/anthropic.ts implements it with the SDK; everything else receives an `Llm` (or
 * null without a key) from the composition root, and tests point the real implementation at a local
 * fake. The message shapes are the Messages API's, re-exported here so no other module imports the SDK.
 */
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages/messages';
import type { MessageBatch, MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';

export type { Message, MessageBatch, MessageBatchIndividualResponse, MessageCreateParamsNonStreaming };

/**
 * How a failed call affects the run:
 * - `paper`: this request is wrong for this input (400, 413, 422); resending it cannot help;
 * - `transient`: rate limits, overload, 5xx, timeouts or the network, after the client's own retries;
 * - `fatal`: a bad key, a missing model, no permission: nothing else will work either.
 */
export type LlmFailure = 'paper' | 'transient' | 'fatal';

/** Per-call limits: a chat answer waits less than a nightly summary run. */
export interface CallOptions {
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
}

export interface Llm {
  /** The configured model (ANTHROPIC_MODEL). */
  readonly model: string;
  /** One Messages API call (the client retries 408/409/429/5xx itself, honouring retry-after). */
  create(params: MessageCreateParamsNonStreaming, opts?: CallOptions): Promise<Message>;
  /** Message Batches: half price, results within 24 h. */
  createBatch(requests: { custom_id: string; params: MessageCreateParamsNonStreaming }[]): Promise<MessageBatch>;
  retrieveBatch(id: string): Promise<MessageBatch>;
  /** The results of an ended batch (read from its absolute `results_url`). */
  batchResults(id: string): Promise<AsyncIterable<MessageBatchIndividualResponse>>;
  failureOf(err: unknown): LlmFailure;
}

/** A failure's message, bounded, for logs and stored errors. */
export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 500);
