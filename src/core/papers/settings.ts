/**
 * A paper's GRPO training settings, each with the verbatim quote that states it: what a
 * practitioner wants from a new paper (group size, clip range, KL term, ...). The LLM summariser and
 * the key-less rules extractor (settings-rules.ts) both produce them, and both obey one rule: a
 * setting whose quote does not occur in the paper's extracted text is dropped (`keepEvidenced`).
 * Pure data and functions.
 */

/** The settings, in the order every view lists them. */
export const SETTING_KEYS = [
  'base_model',
  'group_size',
  'clip_eps_low',
  'clip_eps_high',
  'kl_coef',
  'loss_aggregation',
  'is_level',
  'advantage_norm',
  'length_handling',
  'max_response_length',
  'reward',
  'datasets',
  'learning_rate',
  'batch_size',
  'steps',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];
export const isSettingKey = (s: string): s is SettingKey => (SETTING_KEYS as readonly string[]).includes(s);

/** What each setting means, for the model's instructions and the views. */
export const SETTING_INFO: Record<SettingKey, { label: string; zh: string; describe: string }> = {
  base_model: {
    label: 'Base model',
    zh: '基座模型',
    describe: 'the model(s) RL training starts from, e.g. "Qwen2.5-Math-7B"',
  },
  group_size: { label: 'Group size', zh: '组大小', describe: 'responses sampled per prompt (G), a number' },
  clip_eps_low: {
    label: 'Clip ε low',
    zh: '裁剪 ε 下界',
    describe: 'the lower (or only, symmetric) clip epsilon of the importance ratio, e.g. "0.2"',
  },
  clip_eps_high: {
    label: 'Clip ε high',
    zh: '裁剪 ε 上界',
    describe: 'the upper clip epsilon when it differs from the lower one (clip-higher), e.g. "0.28"',
  },
  kl_coef: {
    label: 'KL coefficient',
    zh: 'KL 系数',
    describe: 'the KL penalty coefficient (β), or "0 (no KL term)" when the paper removes it',
  },
  loss_aggregation: {
    label: 'Loss aggregation',
    zh: '损失聚合',
    describe:
      'how token losses are averaged: "token-level (over all tokens in the batch)", "per-sequence mean", "constant normaliser"',
  },
  is_level: {
    label: 'Importance sampling',
    zh: '重要性采样粒度',
    describe: 'the level of the importance ratio: "token" or "sequence"',
  },
  advantage_norm: {
    label: 'Advantage normalisation',
    zh: '优势归一化',
    describe: 'e.g. "group mean and std", "group mean only (no std)", "batch std"',
  },
  length_handling: {
    label: 'Length / overlong',
    zh: '长度 / 超长处理',
    describe: 'how over-long or truncated responses are treated, e.g. "overlong filtering", "soft overlong punishment"',
  },
  max_response_length: {
    label: 'Max response length',
    zh: '最大回复长度',
    describe: 'the generation length limit in tokens, a number',
  },
  reward: {
    label: 'Reward',
    zh: '奖励',
    describe: 'reward type and verifier, e.g. "rule-based answer match (math-verify), 1/0"',
  },
  datasets: {
    label: 'Training data',
    zh: '训练数据',
    describe: 'the RL training dataset(s), not the evaluation benchmarks',
  },
  learning_rate: { label: 'Learning rate', zh: '学习率', describe: 'the actor learning rate, e.g. "1e-6"' },
  batch_size: {
    label: 'Batch size',
    zh: '批大小',
    describe: 'prompts (or responses, say which) per rollout or update step',
  },
  steps: { label: 'Training steps', zh: '训练步数', describe: 'RL training steps (or epochs, say which)' },
};

/** One setting as stated by the paper. */
export interface Setting {
  key: SettingKey;
  /** Short, normalised value, e.g. "16", "0.28", "0 (no KL term)". */
  value: string;
  /** A verbatim span of the paper's extracted text that states it. */
  evidence: string;
}

/** Where a paper's settings came from: the LLM summary (with its model) or the rules extractor. */
export interface PaperSettings {
  source: 'llm' | 'rules';
  model: string | null;
  items: Setting[];
}

/**
 * Text as compared for evidence: Unicode-normalised, lowercased, without whitespace or backslashes
 * (a quote copied out of a JSON-encoded or LaTeX text keeps its words but not always its escapes),
 * with typographic quotes, dashes and minus signs made plain.
 */
export function evidenceKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201f]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\s\\]+/g, '');
}

/** Quotes shorter than this (normalised) prove nothing: "16" occurs in every paper. */
const MIN_EVIDENCE = 12;
const MAX_EVIDENCE = 400;

/**
 * The settings whose evidence occurs in `text` (the text the settings were read from), at most one
 * per key (the first), values and quotes trimmed. Everything else is dropped, never shown.
 */
export function keepEvidenced(items: readonly Setting[], text: string): { kept: Setting[]; dropped: Setting[] } {
  const haystack = evidenceKey(text);
  const kept: Setting[] = [];
  const dropped: Setting[] = [];
  const seen = new Set<SettingKey>();
  for (const s of items) {
    const value = s.value.replace(/\s+/g, ' ').trim();
    const evidence = s.evidence.replace(/\s+/g, ' ').trim();
    const key = evidenceKey(evidence);
    if (
      seen.has(s.key) ||
      !value ||
      key.length < MIN_EVIDENCE ||
      evidence.length > MAX_EVIDENCE ||
      !haystack.includes(key)
    ) {
      dropped.push(s);
      continue;
    }
    seen.add(s.key);
    kept.push({ key: s.key, value: value.slice(0, 160), evidence });
  }
  kept.sort((a, b) => SETTING_KEYS.indexOf(a.key) - SETTING_KEYS.indexOf(b.key));
  return { kept, dropped };
}

/** The settings as a map by key. */
export const byKey = (items: readonly Setting[]): Partial<Record<SettingKey, Setting>> =>
  Object.fromEntries(items.map((s) => [s.key, s]));

/** Whether a KL value says the term is gone ("0", "none", "removed", "no KL"). */
export function meansNoKl(value: string): boolean {
  return /^0(\.0+)?(?![.\d])|^(none|no|removed|disabled|off)\b|no kl|without kl|remov|not used|无/i.test(value.trim());
}

/**
 * The two or three most telling settings in a few characters, for digest cards:
 * "G=16 · ε 0.2/0.28 · no KL". Undefined when none of them is known.
 */
export function tellingLine(items: readonly Setting[], max = 3): string | undefined {
  const s = byKey(items);
  const parts: string[] = [];
  const num = (v: string) => /^[\d.eE+\-×x^ ]+$/.test(v.trim());
  if (s.group_size && num(s.group_size.value)) parts.push(`G=${s.group_size.value.trim()}`);
  if (s.clip_eps_low || s.clip_eps_high) {
    const low = s.clip_eps_low?.value.trim();
    const high = s.clip_eps_high?.value.trim();
    const text = low && high ? `${low}/${high}` : (low ?? `high ${high}`);
    if (text.length <= 16) parts.push(`ε ${text}`);
  }
  if (s.kl_coef)
    parts.push(meansNoKl(s.kl_coef.value) ? 'no KL' : s.kl_coef.value.length <= 10 ? `KL ${s.kl_coef.value}` : 'KL');
  if (s.is_level && /sequence/i.test(s.is_level.value)) parts.push('sequence-level IS');
  if (s.loss_aggregation && /token/i.test(s.loss_aggregation.value)) parts.push('token-level loss');
  if (s.learning_rate && s.learning_rate.value.length <= 10) parts.push(`lr ${s.learning_rate.value}`);
  return parts.length ? parts.slice(0, max).join(' · ') : undefined;
}
