import { neutralizeMentions, truncate } from '../../core/reply.ts';
import type { SummaryContent } from './schema.ts';

/** Field limits that keep one paper's summary comfortably inside a Discord embed. */
const MAX = { tldr: 400, field: 900, bullet: 300, bullets: 6, delta: 200, setting: 160, evidence: 400 } as const;

/** A validated summary made safe to show: mentions neutralised and every field clipped. */
export function sanitizeSummary(c: SummaryContent): SummaryContent {
  const s = (t: string, max: number) => truncate(neutralizeMentions(t), max);
  return {
    tldr: s(c.tldr, MAX.tldr),
    motivation: s(c.motivation, MAX.field),
    method: c.method.slice(0, MAX.bullets).map((m) => s(m, MAX.bullet)),
    results: s(c.results, MAX.field),
    takeaways: s(c.takeaways, MAX.field),
    grpo_delta: Object.fromEntries(
      Object.entries(c.grpo_delta).map(([k, v]) => [k, s(v, MAX.delta)]),
    ) as SummaryContent['grpo_delta'],
    settings: c.settings.map((x) => ({
      key: x.key,
      value: s(x.value, MAX.setting),
      evidence: s(x.evidence, MAX.evidence),
    })),
  };
}
