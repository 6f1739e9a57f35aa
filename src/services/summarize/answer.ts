import { issuesText, type ReadAnswer } from '../llm/structured.ts';
import { keepEvidenced } from '../../core/papers/settings.ts';
import { sanitizeSummary } from './sanitize.ts';
import { summaryContent, type SummaryContent } from './schema.ts';

/**
 * Reads a summary answer's JSON at our boundary: the zod schema again (the answer is untrusted text
 * until it parses), then every setting whose evidence does not occur in `evidence` (what the model
 * was given) dropped, as /ask drops an answer citing a paper it was not given, then mentions
 * neutralised and fields clipped. A wrong shape is a `malformed` answer; a dropped setting is not an
 * error, the rest of the summary stands.
 */
export const summaryReader =
  (evidence: string): ReadAnswer<SummaryContent> =>
  (json) => {
    const parsed = summaryContent.safeParse(json);
    if (!parsed.success) return { ok: false, error: `schema mismatch: ${issuesText(parsed.error.issues)}` };
    const settings = keepEvidenced(parsed.data.settings, evidence).kept;
    return { ok: true, value: sanitizeSummary({ ...parsed.data, settings }) };
  };
