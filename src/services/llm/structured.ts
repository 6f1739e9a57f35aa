import type { Budget, Reservation } from './budget.ts';
import {
  failureOf,
  type CallOptions,
  type LlmFailure,
  type Llm,
  type Message,
  type MessageCreateParamsNonStreaming,
} from '../../core/llm/port.ts';
import { addUsage, costUsd, estimateRequestUsd, NO_USAGE, round6, usageOf, type TokenUsage } from './pricing.ts';

/** What can be wrong with an answer that did arrive. */
export type AnswerProblem = 'malformed' | 'invalid' | 'refused' | 'cut-off';

/** Reads an answer's JSON at our boundary: the value, or why it cannot be used (`invalid`: well-formed but breaks a rule, e.g. cites papers it was not given). */
export type ReadAnswer<T> = (
  json: unknown,
) => { ok: true; value: T } | { ok: false; error: string; problem?: 'invalid' };

export interface StructuredCall<T> {
  read: ReadAnswer<T>;
  /** Each attempt reserves its estimate here first and settles its cost into the day's ledger; a refused reservation ends the call `over-budget`. Without it nothing is recorded. */
  budget?: Budget;
  /** Per-attempt limits for the adapter. */
  call?: CallOptions;
  /** The whole call, every attempt and retry included (a chat answer's bound). */
  deadlineMs?: number;
  signal?: AbortSignal;
  /** The first attempt when it already happened elsewhere (a batch result), whether it was billed at batch price, and its share of the batch's reservation. */
  prior?: { message: Pick<Message, 'content' | 'stop_reason' | 'usage'>; batch: boolean; reserved?: Reservation };
}

export type StructuredResult<T> = { usage: TokenUsage; costUsd: number } & (
  | { ok: true; value: T }
  /** `api`: the API failed (see `failure`); `over-budget`: an attempt could not be afforded. */
  | { ok: false; problem: AnswerProblem | 'api' | 'over-budget'; error: string; failure?: LlmFailure }
);

/** The second attempt after a cut-off answer gets this much more room (a same-size retry would be cut off and paid again). */
const CUT_OFF_GROWTH = 2;
const MAX_TOKENS_CAP = 16_000;

/**
 * One structured-output request: an attempt, and one more when the answer was refused, cut off at
 * `max_tokens` (then with twice the room), not JSON, or rejected by `read`. Every attempt is priced
 * (batch price for a batch's prior attempt) and, with a budget, reserved before it starts. An API
 * failure ends the call with its classified `failure`; a bug (anything else thrown) propagates.
 */
export async function callStructured<T>(
  llm: Llm,
  params: MessageCreateParamsNonStreaming,
  o: StructuredCall<T>,
): Promise<StructuredResult<T>> {
  let usage = NO_USAGE;
  let cost = 0;
  const errors: string[] = [];
  const overall = o.deadlineMs === undefined ? o.signal : anySignal(o.signal, AbortSignal.timeout(o.deadlineMs));
  let request = params;
  const end = (
    problem: AnswerProblem | 'api' | 'over-budget',
    error: string,
    failure?: LlmFailure,
  ): StructuredResult<T> => ({
    ok: false,
    problem,
    error: [...errors, error].join('; retry: '),
    ...(failure && { failure }),
    usage,
    costUsd: round6(cost),
  });
  let lastProblem: AnswerProblem = 'malformed';

  for (let attempt = 0; attempt < 2; attempt++) {
    let message: Pick<Message, 'content' | 'stop_reason' | 'usage'>;
    let batch = false;
    if (attempt === 0 && o.prior) {
      ({ message, batch } = o.prior);
      await o.budget?.settle(o.prior.reserved ?? null, costUsd(params.model, usageOf(message), { batch }));
    } else {
      const reserved = o.budget ? await o.budget.tryReserve(estimateRequestUsd(request)) : null;
      if (o.budget && !reserved) return end('over-budget', 'the daily LLM budget would be passed');
      try {
        message = await llm.create(request, { ...o.call, ...(overall && { signal: overall }) });
      } catch (err) {
        await o.budget?.settle(reserved, 0);
        const failure = failureOf(err);
        if (!failure) throw err;
        return end('api', failure.message, failure);
      }
      await o.budget?.settle(reserved, costUsd(params.model, usageOf(message)));
    }
    usage = addUsage(usage, usageOf(message));
    cost += costUsd(params.model, usageOf(message), { batch });

    const answer = readStructured(message, o.read);
    if (answer.ok) return { ok: true, value: answer.value, usage, costUsd: round6(cost) };
    errors.push(answer.error);
    lastProblem = answer.problem;
    if (answer.problem === 'cut-off')
      request = { ...request, max_tokens: Math.min(MAX_TOKENS_CAP, request.max_tokens * CUT_OFF_GROWTH) };
  }
  const last = errors.pop()!;
  return end(lastProblem, last);
}

/** One answer read: refusal, cut-off, not JSON, or what `read` says of its JSON. */
export function readStructured<T>(
  m: Pick<Message, 'content' | 'stop_reason'>,
  read: ReadAnswer<T>,
): { ok: true; value: T } | { ok: false; error: string; problem: AnswerProblem } {
  if (m.stop_reason === 'refusal')
    return { ok: false, problem: 'refused', error: 'refused: the model declined to answer' };
  if (m.stop_reason === 'max_tokens')
    return { ok: false, problem: 'cut-off', error: 'cut off: the answer reached max_tokens' };
  const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  let json: unknown;
  try {
    json = JSON.parse(stripFence(text));
  } catch {
    return { ok: false, problem: 'malformed', error: `invalid JSON: ${text.slice(0, 120)}` };
  }
  const r = read(json);
  return r.ok ? r : { ok: false, problem: r.problem ?? 'malformed', error: r.error };
}

/** Structured output returns bare JSON; tolerate a Markdown fence in case a model adds one anyway. */
function stripFence(text: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return m ? m[1]! : text;
}

const anySignal = (a: AbortSignal | undefined, b: AbortSignal): AbortSignal => (a ? AbortSignal.any([a, b]) : b);

/** Zod issues as one short line (`path: message; ...`), for stored errors. */
export function issuesText(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}
