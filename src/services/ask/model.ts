import {
  ASK_JSON_SCHEMA,
  ASK_MAX_TOKENS,
  ASK_SYSTEM_PROMPT,
  askUserPrompt,
  checkAnswer,
  type AskAnswer,
  type AskSource,
} from '../../core/ask/prompt.ts';
import type { Budget } from '../llm/budget.ts';
import type { Llm, MessageCreateParamsNonStreaming } from '../../core/llm/port.ts';
import { callStructured } from '../llm/structured.ts';
import { neutralizeMentions } from '../../core/reply.ts';
import type { AskFailure } from '../../core/ask/result.ts';

/**
 * The request for one question: the rules in the system prompt, the papers in the user turn. No
 * cache breakpoint: the system prompt is ~500 tokens, far under the smallest cacheable prefix
 * (1,024 to 4,096 tokens by model), so a breakpoint would cache nothing.
 */
export function askRequest(
  question: string,
  sources: readonly AskSource[],
  model: string,
): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: ASK_MAX_TOKENS,
    system: [{ type: 'text', text: ASK_SYSTEM_PROMPT }],
    messages: [{ role: 'user', content: [{ type: 'text', text: askUserPrompt(question, sources) }] }],
    output_config: { format: { type: 'json_schema', schema: ASK_JSON_SCHEMA } },
  };
}

export type { AskFailure } from '../../core/ask/result.ts';

export type AskOutcome =
  | { kind: 'ok'; answer: AskAnswer; costUsd: number }
  | { kind: 'failed'; reason: AskFailure; error: string; costUsd: number };

export interface AskLimits {
  budget: Budget;
  /** The whole answer, both attempts and the client's retries included. */
  deadlineMs: number;
}

/**
 * Asks the model once, and once more when the answer is refused, cut off (then with more room),
 * malformed or cites a paper it was not given; all within `deadlineMs`. A good answer comes back
 * with mentions neutralised. Every attempt's cost is counted.
 */
export async function askModel(
  llm: Llm,
  question: string,
  sources: readonly AskSource[],
  limits: AskLimits,
): Promise<AskOutcome> {
  const r = await callStructured(llm, askRequest(question, sources, llm.model), {
    read: (json) => {
      const checked = checkAnswer(json, sources.length);
      if (checked.ok) return { ok: true, value: checked.answer };
      return { ok: false, error: checked.error, ...(checked.invalid && { problem: 'invalid' as const }) };
    },
    budget: limits.budget,
    deadlineMs: limits.deadlineMs,
    call: { deadlineMs: limits.deadlineMs, maxRetries: 2 },
  });
  if (r.ok)
    return { kind: 'ok', answer: { ...r.value, answer: neutralizeMentions(r.value.answer) }, costUsd: r.costUsd };
  return { kind: 'failed', reason: reasonOf(r), error: r.error, costUsd: r.costUsd };
}

function reasonOf(r: { problem: string; failure?: { kind: string; slow: boolean } }): AskFailure {
  if (r.problem === 'api') {
    if (r.failure?.kind === 'config') return 'misconfigured';
    if (r.failure?.kind === 'rejected') return 'rejected';
    return r.failure?.slow ? 'slow' : 'unavailable';
  }
  if (r.problem === 'invalid') return 'bad-citations';
  return r.problem as AskFailure;
}
