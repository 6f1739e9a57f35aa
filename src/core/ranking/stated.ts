/**
 * What a paper states about its training, as searchable words (pure): the settings the rules
 * extractor read from its full text and the GRPO-delta axes its LLM summary says it changes. Only
 * what sets a paper apart is said: every GRPO paper states a group size, so a single group size adds
 * nothing, while several (an ablation) make the paper one about group size; an axis the summary marks
 * "unchanged" or "n/a" adds nothing, one it marks "changed: ..." adds the axis's name and how.
 */
import { GRPO_AXES } from '../digest/delta.ts';

/** The words an abstract would use for each GRPO-delta axis. */
const AXIS_WORDS: Record<(typeof GRPO_AXES)[number], string> = {
  advantage_normalization: 'advantage normalization',
  clipping: 'clipping clip range',
  kl_term: 'KL penalty',
  loss_aggregation: 'loss aggregation',
  importance_sampling_level: 'importance sampling level',
  sampling_filtering: 'sampling filtering',
  reward_type: 'reward design',
};

const NUMBER = /^\s*[\d.]+(?:e-?\d+)?\s*$/i;
const several = (v: string) => v.split(/\s*(?:\/|,|;|\bto\b|-|–)\s*/).filter((x) => /\d/.test(x)).length > 1;

/** The words one stated setting adds, or '' when it does not set the paper apart. */
function settingWords(key: string, value: string, all: ReadonlyMap<string, string>): string {
  switch (key) {
    case 'group_size':
      if (several(value)) return `group size ${value} rollouts per prompt number of rollouts`;
      return value.trim() === '1' ? 'single rollout group size 1' : '';
    case 'kl_coef':
      return /no kl/i.test(value) || /^0(?:\.0*)?$/.test(value.trim()) ? 'no KL penalty removes the KL term' : '';
    case 'clip_eps_high': {
      const low = all.get('clip_eps_low');
      return low !== undefined && low.trim() !== value.trim() ? 'clip-higher asymmetric decoupled clipping' : '';
    }
    case 'loss_aggregation':
      return `loss aggregation ${value}`;
    case 'is_level':
      return `importance sampling ${value}`;
    case 'advantage_norm':
      return `advantage normalization ${value}`;
    case 'length_handling':
      return `length ${value}`;
    case 'base_model':
    case 'datasets':
    case 'reward':
      return NUMBER.test(value) ? '' : value;
    default:
      return '';
  }
}

/** The settings read from a full text (key, value), as words. */
export function statedSettingsText(settings: readonly { key: string; value: string }[]): string {
  const all = new Map(settings.map((s) => [s.key, s.value]));
  return settings
    .map((s) => settingWords(s.key, s.value, all))
    .filter(Boolean)
    .join(' ');
}

/** The axes a summary's GRPO delta marks changed: each axis's words and how it changed. */
export function changedAxesText(delta: unknown): string {
  if (!delta || typeof delta !== 'object') return '';
  const out: string[] = [];
  for (const axis of GRPO_AXES) {
    const v = (delta as Record<string, unknown>)[axis];
    const m = typeof v === 'string' ? /^changed:\s*(.+)$/is.exec(v.trim()) : null;
    if (m) out.push(`${AXIS_WORDS[axis]} ${m[1]}`);
  }
  return out.join(' ');
}
