import { CUSTOM_IDS } from '../custom-id.ts';
import { GRPO_AXES, isUnchanged } from '../digest/delta.ts';
import { clip } from '../text/clip.ts';
import { SETTING_INFO, SETTING_KEYS, byKey, type PaperSettings } from '../papers/settings.ts';
import { fitEmbed, LIMITS, truncate, type Button, type Embed, type EmbedField, type Reply } from '../reply.ts';

/** One paper's column. */
export interface CompareColumn {
  paper: { id: number; arxivId: string | null; title: string };
  settings: PaperSettings | null;
  /** The summary's GRPO delta per axis, when a summary exists. */
  delta: Record<string, string> | null;
}

const LETTERS = ['A', 'B', 'C', 'D'] as const;
/** A cell's characters: four of them and the labels stay far inside an embed field (1,024). */
const CELL = 60;
const AXIS_LABEL: Record<string, string> = {
  advantage_normalization: 'Δ advantages',
  clipping: 'Δ clipping',
  kl_term: 'Δ KL term',
  loss_aggregation: 'Δ loss aggregation',
  importance_sampling_level: 'Δ importance sampling',
  sampling_filtering: 'Δ sampling / filtering',
  reward_type: 'Δ reward',
};

/**
 * 2 to 4 papers side by side: one field per setting or GRPO-delta axis that any of them states, a
 * line per paper (A, B, C, D) in each; "—" where a paper does not say. Each paper's Evidence button
 * quotes the paper for every cell of its column. Fits one message. Pure.
 */
export function compareReply(cols: readonly CompareColumn[]): Reply {
  const fields: EmbedField[] = [];
  const row = (name: string, cells: (string | undefined)[]) => {
    if (cells.every((c) => !c)) return;
    const short = cells.every((c) => !c || c.length <= 14);
    const value = cells.map((c, i) => `**${LETTERS[i]}** ${c ? clip(c, CELL) : '—'}`).join(short ? ' · ' : '\n');
    fields.push({ name, value: truncate(value, LIMITS.fieldValue) });
  };
  const settings = cols.map((c) => byKey(c.settings?.items ?? []));
  for (const key of SETTING_KEYS)
    row(
      SETTING_INFO[key].label,
      settings.map((s) => s[key]?.value),
    );
  for (const axis of GRPO_AXES) {
    const cells = cols.map((c) => c.delta?.[axis]);
    if (cells.some((v) => v && !isUnchanged(v)))
      row(
        AXIS_LABEL[axis] ?? axis,
        cells.map((v) => (v ? (isUnchanged(v) ? 'unchanged' : v.replace(/^changed:\s*/i, '')) : undefined)),
      );
  }
  const description = cols
    .map((c, i) => {
      const source = c.settings
        ? c.settings.source === 'llm'
          ? 'settings read by the LLM'
          : 'settings found by rules'
        : 'no full text read yet';
      return `**${LETTERS[i]}** ${c.paper.arxivId ? `\`${c.paper.arxivId}\` ` : ''}${clip(c.paper.title, 110)} · *${source}*`;
    })
    .join('\n');
  const embed: Embed = {
    title: `Comparing ${cols.length} papers`,
    description: fields.length
      ? description
      : `${description}\n\nNone of them has stated settings or a GRPO delta yet. The settings come from each paper's full text: the bot reads a few a day, or an operator reads these now with \`grpo-digest fetch-text --paper <id>\` (arXiv's HTML; no API key needed). The delta comes from an LLM summary (ANTHROPIC_API_KEY).`,
    fields,
    footer: "Δ: the LLM summary's GRPO delta. Evidence quotes each paper for its column.",
  };
  const buttons: Button[] = cols.map((c, i) => ({
    kind: 'action',
    customId: CUSTOM_IDS.paperEvidence.encode({ paper: c.paper.id }),
    label: `Evidence ${LETTERS[i]}`,
    style: 'secondary',
  }));
  return { embeds: [fitEmbed(embed)], components: [buttons] };
}
