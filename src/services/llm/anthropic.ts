import type Anthropic from '@anthropic-ai/sdk';
import { ConfigError, type Config } from '../../core/config.ts';
import type { Logger } from '../../core/log.ts';
import { classifyError, type Operation } from './classify.ts';
import { checkModel } from './models.ts';
import { LlmError, type CallOptions, type Llm, type MessageBatchIndividualResponse } from '../../core/llm/port.ts';

/** The SDK's per-request options we set. */
interface RequestOptions {
  signal: AbortSignal;
  timeout: number;
  maxRetries?: number;
}

/** Limits of a batch step: a status check is quick; reading the results of a large batch is not. */
const BATCH_DEADLINE_MS = { retrieve: 60_000, results: 10 * 60_000 } as const;

/**
 * The one place the Anthropic SDK client is built: the `Llm` port over it, or null without an API
 * key (then only extractive fallbacks exist). The key is always passed explicitly: without one the
 * 1.x SDK would walk a credential chain (profiles, workload identity) we never want to pick up by
 * accident. A model that cannot do structured outputs is refused here, at start-up; one this bot does
 * not know is reported. Every call has a deadline (LLM_TIMEOUT_MS unless the caller asks for less),
 * and every failure is thrown as an `LlmError` already classified.
 */
export function createLlm(c: Config['anthropic'], llm: Pick<Config['llm'], 'timeoutMs'>, log?: Logger): Llm | null {
  if (!c.apiKey) return null;
  const check = checkModel(c.model);
  if (check.error) throw new ConfigError(check.error);
  if (check.warning) log?.warn({ model: c.model }, check.warning);
  const options = {
    apiKey: c.apiKey,
    ...(c.baseUrl ? { baseURL: c.baseUrl } : {}),
    maxRetries: 3,
    timeout: llm.timeoutMs,
  };
  // The SDK is loaded on the first call: importing it is a third of the CLI's start-up, and most
  // commands never call the model.
  let loading: Promise<Anthropic> | undefined;
  const sdk = () => (loading ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => new Sdk(options)));

  /** Runs one SDK call within its deadline and classifies what it throws. */
  async function call<T>(op: Operation, o: CallOptions, fn: (opts: RequestOptions) => Promise<T>): Promise<T> {
    const deadlineMs = Math.max(1, Math.round(o.deadlineMs ?? llm.timeoutMs));
    const signal = o.signal
      ? AbortSignal.any([o.signal, AbortSignal.timeout(deadlineMs)])
      : AbortSignal.timeout(deadlineMs);
    try {
      const opts: RequestOptions = { signal, timeout: Math.max(1, Math.round(o.timeoutMs ?? deadlineMs / 2)) };
      if (o.maxRetries !== undefined) opts.maxRetries = o.maxRetries;
      return await fn(opts);
    } catch (err) {
      throw new LlmError(classifyError(err, op, signal), { cause: err });
    }
  }

  return {
    model: c.model,
    create: (params, o = {}) => call('message', o, async (opts) => (await sdk()).messages.create(params, opts)),
    createBatch: (requests) =>
      call('message', {}, async (opts) => (await sdk()).messages.batches.create({ requests }, opts)),
    retrieveBatch: (id) =>
      call('batch', { deadlineMs: BATCH_DEADLINE_MS.retrieve }, async (opts) =>
        (await sdk()).messages.batches.retrieve(id, {}, opts),
      ),
    batchResults: async (id) => {
      const signal = AbortSignal.timeout(BATCH_DEADLINE_MS.results);
      const lines = await call('batch', { signal, deadlineMs: BATCH_DEADLINE_MS.results }, async (opts) =>
        (await sdk()).messages.batches.results(id, {}, opts),
      );
      return readAll(lines, signal);
    },
  };
}

/** The results stream, its read errors (a body cut off, a bad line) classified like a call's. */
async function* readAll(
  lines: AsyncIterable<MessageBatchIndividualResponse>,
  signal: AbortSignal,
): AsyncIterable<MessageBatchIndividualResponse> {
  try {
    for await (const line of lines) yield line;
  } catch (err) {
    throw new LlmError(classifyError(err, 'batch', signal), { cause: err });
  }
}
