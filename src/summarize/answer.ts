import type { Message } from '../llm/port.ts';
import type { TokenUsage } from './pricing.ts';
import { sanitizeSummary } from './sanitize.ts';
import { summaryContent, type SummaryContent } from './schema.ts';

/** One answer read at the boundary: a safe summary, or why it cannot be used. */
export type Answer = { ok: true; content: SummaryContent; usage: TokenUsage } | { ok: false; error: string; usage: TokenUsage };

export function usageOf(m: Pick<Message, 'usage'>): TokenUsage {
  const u = m.usage;
  return { input: u.input_tokens ?? 0, output: u.output_tokens ?? 0, cacheRead: u.cache_read_input_tokens ?? 0, cacheWrite: u.cache_creation_input_tokens ?? 0 };
}

/**
 * Reads a model answer: a refusal, a cut-off answer, text that is not JSON or JSON of the wrong shape
 * are errors (the caller retries once, then records the paper as failed). A good answer comes back
 * sanitised: mentions neutralised and fields clipped.
 */
export function readAnswer(m: Pick<Message, 'content' | 'stop_reason' | 'usage'>): Answer {
  const usage = usageOf(m);
  const fail = (error: string): Answer => ({ ok: false, error, usage });
  if (m.stop_reason === 'refusal') return fail('refused: the model declined to summarise this paper');
  if (m.stop_reason === 'max_tokens') return fail('cut off: the answer reached max_tokens');
  const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  let json: unknown;
  try {
    json = JSON.parse(stripFence(text));
  } catch {
    return fail(`invalid JSON: ${text.slice(0, 120)}`);
  }
  const parsed = summaryContent.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return fail(`schema mismatch: ${issues.join('; ')}`);
  }
  return { ok: true, content: sanitizeSummary(parsed.data), usage };
}

/** Structured output returns bare JSON; tolerate a Markdown fence in case a model adds one anyway. */
function stripFence(text: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return m ? m[1]! : text;
}
