// The SDK's error classes alone: the client itself is loaded on the first call (anthropic.ts).
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/error';
import { redactSecrets } from '../../core/errors.ts';
import { errorMessage, type LlmFailure } from '../../core/llm/port.ts';

/** Which call failed: a 404 means "no such model" for a message, "no such batch" for a batch. */
export type Operation = 'message' | 'batch';

/**
 * A 400 that no request of ours could pass, whatever the paper: the model (unknown, retired, not
 * allowed), structured outputs (`output_config`, `json_schema`) or a parameter the model refuses.
 * The API's wording may change, so this is a heuristic; the run guard catches the rest by repetition.
 */
const CONFIG_400 =
  /\bmodel\b|output_config|output_format|json_schema|structured output|does not support|not supported|unsupported/i;

/**
 * Classifies whatever a call threw (see `LlmFailure` in port.ts). `signal` is the one the call was
 * given: when it fired, the caller's deadline (`AbortSignal.timeout`, reason `TimeoutError`) means
 * "slow", anything else means the caller gave up.
 */
export function classifyError(err: unknown, op: Operation, signal?: AbortSignal): LlmFailure {
  const fail = (kind: LlmFailure['kind'], message: string, status: number | null = null, slow = false): LlmFailure => ({
    kind,
    slow,
    status,
    message: redactSecrets(message).slice(0, 500),
  }); // the API's own words may echo the key
  if (signal?.aborted) {
    const timedOut = (signal.reason as Error | undefined)?.name === 'TimeoutError';
    return timedOut
      ? fail('unavailable', 'no answer within the time allowed', null, true)
      : fail('aborted', 'the call was cancelled');
  }
  if (err instanceof APIConnectionTimeoutError)
    return fail('unavailable', 'the API did not answer in time (every attempt timed out)', null, true);
  if (err instanceof APIUserAbortError) return fail('aborted', 'the call was cancelled');
  if (err instanceof APIConnectionError)
    return fail('unavailable', `could not reach the API: ${errorMessage(err.cause ?? err)}`);
  if (err instanceof APIError) {
    const s = err.status ?? null;
    const what = `${s ?? ''} ${err.type ?? 'error'}: ${err.apiMessage ?? errorMessage(err)}`.trim();
    if (s === 401 || s === 402 || s === 403) return fail('config', what, s);
    if (s === 404) return op === 'batch' ? fail('gone', what, s) : fail('config', what, s);
    if (s === 400 && CONFIG_400.test(err.apiMessage ?? err.message)) return fail('config', what, s);
    if (s === 400 || s === 413 || s === 422) return fail('rejected', what, s);
    return fail('unavailable', what, s);
  }
  // The SDK does not retry a body it cannot read: a response cut off (`terminated`) or not JSON.
  if (err instanceof SyntaxError || err instanceof TypeError)
    return fail('unavailable', `the API's answer could not be read: ${errorMessage(err)}`);
  return fail('unavailable', errorMessage(err));
}

/** An errored request inside a batch result (its error object, no HTTP status), classified like a call's. */
export function classifyBatchError(e: { type: string; message: string }): LlmFailure {
  const message = redactSecrets(`${e.type}: ${e.message}`).slice(0, 500);
  const kind: LlmFailure['kind'] =
    e.type === 'invalid_request_error'
      ? CONFIG_400.test(e.message)
        ? 'config'
        : 'rejected'
      : ['authentication_error', 'permission_error', 'billing_error', 'not_found_error'].includes(e.type)
        ? 'config'
        : 'unavailable';
  return { kind, slow: false, status: null, message };
}
