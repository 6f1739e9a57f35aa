import type { MessageCreateParamsNonStreaming } from '../llm/port.ts';
import { ASK_JSON_SCHEMA, ASK_MAX_TOKENS, ASK_SYSTEM_PROMPT, askUserPrompt, checkAnswer, type AskAnswer, type AskSource } from '../ask/prompt.ts';
import { usageOf } from './answer.ts';
import { errorMessage, type Llm } from '../llm/port.ts';
import { costUsd, estimateCostUsd } from './pricing.ts';
import { neutralizeMentions } from '../reply.ts';

/** The request for one question; the papers go in the user turn, the rules in a cached system prompt. */
export function askRequest(question: string, sources: readonly AskSource[], model: string): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: ASK_MAX_TOKENS,
    system: [{ type: 'text', text: ASK_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: askUserPrompt(question, sources) }] }],
    output_config: { format: { type: 'json_schema', schema: ASK_JSON_SCHEMA } },
  };
}

/** An upper bound for both attempts of one question, checked against the daily budget before calling. */
export function estimateAskUsd(question: string, sources: readonly AskSource[], model: string): number {
  return 2 * estimateCostUsd(model, ASK_SYSTEM_PROMPT.length + askUserPrompt(question, sources).length, ASK_MAX_TOKENS);
}

export type AskOutcome =
  | { kind: 'ok'; answer: AskAnswer; costUsd: number }
  | { kind: 'failed'; error: string; costUsd: number };

/**
 * Asks the model once, and once more when the answer is refused, cut off, malformed or cites a
 * paper it was not given. A good answer comes back with mentions neutralised. API errors (after the
 * SDK's own retries) fail the question; every attempt's cost is counted.
 */
export async function askModel(llm: Llm, question: string, sources: readonly AskSource[], model: string): Promise<AskOutcome> {
  let cost = 0;
  const errors: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    let message;
    try {
      message = await llm.create(askRequest(question, sources, model), { maxRetries: 2, timeoutMs: 60_000 });
    } catch (err) {
      errors.push(`API: ${errorMessage(err)}`);
      break;
    }
    cost += costUsd(model, usageOf(message));
    const error = message.stop_reason === 'refusal' ? 'refused' : message.stop_reason === 'max_tokens' ? 'cut off at max_tokens' : undefined;
    if (error) {
      errors.push(error);
      continue;
    }
    const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    let json: unknown;
    try {
      json = JSON.parse(text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
    } catch {
      errors.push(`invalid JSON: ${text.slice(0, 80)}`);
      continue;
    }
    const checked = checkAnswer(json, sources.length);
    if (checked.ok) return { kind: 'ok', answer: { ...checked.answer, answer: neutralizeMentions(checked.answer.answer) }, costUsd: round6(cost) };
    errors.push(checked.error);
  }
  return { kind: 'failed', error: errors.join('; '), costUsd: round6(cost) };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
