import { issuesText, type ReadAnswer } from '../llm/structured.ts';
import { sanitizeSummary } from './sanitize.ts';
import { summaryContent, type SummaryContent } from './schema.ts';

/**
 * Reads a summary answer's JSON at our boundary: the zod schema again (the answer is untrusted text
 * until it parses), then mentions neutralised and fields clipped. A wrong shape is a `malformed` answer.
 */
export const readSummary: ReadAnswer<SummaryContent> = (json) => {
  const parsed = summaryContent.safeParse(json);
  if (!parsed.success) return { ok: false, error: `schema mismatch: ${issuesText(parsed.error.issues)}` };
  return { ok: true, value: sanitizeSummary(parsed.data) };
};
