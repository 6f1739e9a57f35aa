import { z } from 'zod';
import { GRPO_AXES, type GrpoAxis } from '../../core/digest/delta.ts';
import { isSettingKey, SETTING_INFO, SETTING_KEYS, type Setting } from '../../core/papers/settings.ts';

/**
 * The structured summary an LLM writes for one paper, mirroring the seed notes plus `grpo_delta`.
 * `SUMMARY_JSON_SCHEMA` is what the API constrains the answer to; `summaryContent` re-checks it at
 * our boundary, because the answer is untrusted text until it parses.
 */

/**
 * Bump when the prompt or schema changes: every paper is then summarised again, once, under the new
 * version. v2: the paper's full text (when arXiv has HTML of it) and `settings` with evidence.
 */
export const PROMPT_VERSION = 'v2';

export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];
export const isLang = (s: string): s is Lang => (LANGS as readonly string[]).includes(s);

/**
 * `unchanged`, `n/a` or `changed: <how>`. Lenient about case and the separator (models write
 * "Changed - ..." now and then) but normalised, so the stored value always has one of the three forms.
 */
const deltaValue = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const lower = s.toLowerCase();
    if (/^unchanged\.?$/.test(lower)) return 'unchanged';
    if (/^(n\/a|na|not applicable)\.?$/.test(lower)) return 'n/a';
    const m = /^changed\s*[:\-–—]\s*(.+)$/is.exec(s);
    if (m?.[1]?.trim()) return `changed: ${m[1].trim()}`;
    ctx.addIssue({ code: 'custom', message: 'must be "unchanged", "n/a" or "changed: <how>"' });
    return z.NEVER;
  });

const text = z.string().trim().min(1);

/**
 * A setting as the model states it (`name`) or as it is stored (`key`); unknown names are dropped, not
 * fatal (the evidence rule runs after, on the model's answer).
 */
const settings = z
  .array(z.object({ name: z.string().optional(), key: z.string().optional(), value: z.string(), evidence: z.string() }))
  .transform((xs): Setting[] =>
    xs.flatMap((x) => {
      const key = x.name ?? x.key ?? '';
      return isSettingKey(key) && x.value.trim() ? [{ key, value: x.value.trim(), evidence: x.evidence.trim() }] : [];
    }),
  );

export const summaryContent = z.object({
  tldr: text,
  motivation: text,
  method: z.array(text).min(1),
  results: text,
  takeaways: text,
  grpo_delta: z.object(
    Object.fromEntries(GRPO_AXES.map((a) => [a, deltaValue])) as Record<GrpoAxis, typeof deltaValue>,
  ),
  /** Stated training settings, each with a verbatim quote (absent in v1 summaries). */
  settings: settings.default([]),
});
export type SummaryContent = z.infer<typeof summaryContent>;
export type GrpoDelta = SummaryContent['grpo_delta'];

const deltaDescription = 'Exactly "unchanged", "n/a", or "changed: <how, in a few words>".';

/**
 * Hand-written rather than generated: structured outputs accept only a subset of JSON Schema
 * (no maxItems/maxLength), so this stays within it. A test keeps its keys in step with the zod schema.
 */
export const SUMMARY_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['tldr', 'motivation', 'method', 'results', 'takeaways', 'grpo_delta', 'settings'],
  properties: {
    tldr: { type: 'string', description: 'One or two sentences: what the paper does and why it matters.' },
    motivation: { type: 'string', description: 'The problem or gap the paper addresses.' },
    method: {
      type: 'array',
      minItems: 1,
      items: { type: 'string' },
      description: 'The key ideas, one short bullet each (2 to 5 bullets).',
    },
    results: { type: 'string', description: 'Main results with the numbers the abstract gives.' },
    takeaways: { type: 'string', description: 'What a practitioner of GRPO-style RL should take away.' },
    grpo_delta: {
      type: 'object',
      additionalProperties: false,
      required: [...GRPO_AXES],
      properties: Object.fromEntries(GRPO_AXES.map((a) => [a, { type: 'string', description: deltaDescription }])),
    },
    settings: {
      type: 'array',
      description:
        'Training settings the paper states for its own method, each at most once; leave out what it does not state.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'value', 'evidence'],
        properties: {
          name: { type: 'string', enum: [...SETTING_KEYS] },
          value: { type: 'string', description: 'Short and in English, numbers as the paper gives them.' },
          evidence: {
            type: 'string',
            description: 'A verbatim span of the paper data (one sentence or table row) that states the value.',
          },
        },
      },
    },
  },
} as const;

/** The settings list for the system prompt: each name and what it means. */
export const SETTINGS_GUIDE = SETTING_KEYS.map((k) => `  - ${k}: ${SETTING_INFO[k].describe}`).join('\n');
