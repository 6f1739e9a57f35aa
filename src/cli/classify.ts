import { z } from 'zod';
import { classifyPaper } from '../core/papers/classify.ts';

const Line = z.object({
  title: z.string().trim().min(1, 'needs a non-empty "title"'),
  abstract: z.string().default(''),
  id: z.union([z.string(), z.number()]).optional(),
  arxiv_id: z.string().optional(),
});

export interface ClassifiedLine {
  /** The input line it came from (1-based), so papers without an id can be matched to their output. */
  line: number;
  id?: string | number;
  arxiv_id?: string;
  grpo_family: boolean;
  score: number;
  families: string[];
  topics: string[];
  reasons: string[];
}

/** One JSON line in, one classification out (snake_case, as the issue and the eval files spell it), or why not. */
export function classifyJsonLine(line: string, lineNo: number): ClassifiedLine | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { error: 'not valid JSON' };
  }
  const parsed = Line.safeParse(json);
  if (!parsed.success)
    return { error: parsed.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ') };
  const { title, abstract, id, arxiv_id } = parsed.data;
  const c = classifyPaper({ title, abstract });
  return {
    line: lineNo,
    ...(id !== undefined && { id }),
    ...(arxiv_id !== undefined && { arxiv_id }),
    grpo_family: c.grpoFamily,
    score: Math.round(c.score * 1000) / 1000,
    families: c.families,
    topics: c.topics,
    reasons: c.reasons,
  };
}
