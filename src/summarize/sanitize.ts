import type { SummaryContent } from './schema.ts';

/** Zero-width space: breaks a mention's syntax without changing what a reader sees. */
const ZWSP = '\u200b';

/**
 * Makes text unable to ping anyone on Discord: `@everyone`, `@here`, user `<@1>`/`<@!1>`, role `<@&1>`
 * and channel `<#1>` mentions get a zero-width space after the `@` or `<`. LLM output (and any text
 * derived from untrusted papers) passes through this at the boundary; the renderer also sends
 * `allowedMentions: {parse: []}`, so this is the second line of defence, not the only one.
 */
export function neutralizeMentions(text: string): string {
  return text
    .replace(/@(everyone|here)\b/gi, `@${ZWSP}$1`)
    .replace(/<(@[!&]?|#)(\d+)>/g, `<${ZWSP}$1$2>`);
}

/** Clips to `max` characters on a code-point boundary, with an ellipsis. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/** Field limits that keep one paper's summary comfortably inside a Discord embed. */
const MAX = { tldr: 400, field: 900, bullet: 300, bullets: 6, delta: 200 } as const;

/** A validated summary made safe to show: mentions neutralised and every field clipped. */
export function sanitizeSummary(c: SummaryContent): SummaryContent {
  const s = (t: string, max: number) => clip(neutralizeMentions(t), max);
  return {
    tldr: s(c.tldr, MAX.tldr),
    motivation: s(c.motivation, MAX.field),
    method: c.method.slice(0, MAX.bullets).map((m) => s(m, MAX.bullet)),
    results: s(c.results, MAX.field),
    takeaways: s(c.takeaways, MAX.field),
    grpo_delta: Object.fromEntries(Object.entries(c.grpo_delta).map(([k, v]) => [k, s(v, MAX.delta)])) as SummaryContent['grpo_delta'],
  };
}
