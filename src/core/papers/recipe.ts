/**
 * A paper's reproduction with TRL: its stated settings plus its family's entry in families.ts turned
 * into `GRPOConfig` arguments for the TRL release the family data was checked against, each marked
 * as the paper's (with its evidence) or the family's, and what TRL cannot express. Pure.
 */
import { FAMILIES, TRL_DOC_VERSION, type FamilyEntry } from './families.ts';
import { byKey, meansNoKl, type Setting } from './settings.ts';
import { paperKind } from './kind.ts';

export interface RecipeArg {
  name: string;
  /** As written in Python. */
  value: string;
  from: 'paper' | 'family';
  /** Why, in a few words (the family setting's meaning, or how the paper's value maps). */
  note?: string;
  evidence?: string;
}

export interface Recipe {
  trlVersion: string;
  trainer: string;
  /** The family whose TRL entry filled the gaps (null: plain GRPO defaults). */
  family: string | null;
  model: string | null;
  args: RecipeArg[];
  /** Settings the paper states that map to no argument, as comments for the script. */
  notes: string[];
  /** What TRL cannot express: the family's known gaps and the paper's settings with no TRL form. */
  cannot: string[];
}

/**
 * The family entry the recipe starts from: the most specific of the paper's families (a variant
 * before GRPO, GRPO before RLVR, which is a setting more than an optimiser). Without `fallback`, a
 * paper with no family gets none (the card's rule); with it, plain GRPO (the Reproduce button's old
 * behaviour, kept for `trlRecipe` callers that ask for it).
 */
function baseFamily(
  names: readonly string[],
  opts: { fallback: boolean } = { fallback: true },
): FamilyEntry | undefined {
  const entries = names.map((n) => FAMILIES.find((f) => f.name === n)).filter((f): f is FamilyEntry => Boolean(f));
  const generic = new Set(['GRPO', 'RLVR']);
  return (
    entries.find((f) => !generic.has(f.name) && f.trl.support !== 'none') ??
    entries.find((f) => !generic.has(f.name)) ??
    entries.find((f) => f.name === 'GRPO') ??
    entries.find((f) => f.name === 'RLVR') ??
    (opts.fallback ? FAMILIES.find((f) => f.name === 'GRPO') : undefined)
  );
}

/** `name=value` pairs of a family setting such as `epsilon=0.2, epsilon_high=0.28` (placeholders like `G` left out). */
function familyArgs(f: FamilyEntry): RecipeArg[] {
  const args: RecipeArg[] = [];
  for (const s of f.trl.settings) {
    if (/Trainer|import /.test(s.setting)) continue;
    for (const part of s.setting.split(/,\s*(?![^[(]*[\])])/)) {
      const m = /^\s*([a-z_]+)=(.+?)\s*$/.exec(part);
      if (!m || /^[A-Za-zμ]$/.test(m[2]!) || m[1] === 'reward_funcs') continue;
      args.push({ name: m[1]!, value: m[2]!, from: 'family', note: s.what });
    }
  }
  return args;
}

const num = (v: string): string | undefined => /^-?\d+(\.\d+)?(e-?\d+)?$/i.exec(v.trim().replace(/,/g, ''))?.[0];
const int = (v: string): string | undefined => /^\d[\d,]*/.exec(v.trim())?.[0]?.replace(/,/g, '');

/** The paper's settings as GRPOConfig arguments, and those that have none. */
function paperArgs(items: readonly Setting[]): { args: RecipeArg[]; notes: string[]; cannot: string[] } {
  const s = byKey(items);
  const args: RecipeArg[] = [];
  const notes: string[] = [];
  const cannot: string[] = [];
  const put = (name: string, value: string | undefined, from: Setting | undefined, note?: string) => {
    if (value !== undefined && from)
      args.push({ name, value, from: 'paper', evidence: from.evidence, ...(note && { note }) });
  };
  put('num_generations', s.group_size && int(s.group_size.value), s.group_size);
  put('epsilon', s.clip_eps_low && num(s.clip_eps_low.value), s.clip_eps_low);
  put('epsilon_high', s.clip_eps_high && num(s.clip_eps_high.value), s.clip_eps_high);
  if (s.kl_coef) put('beta', meansNoKl(s.kl_coef.value) ? '0.0' : num(s.kl_coef.value), s.kl_coef);
  put('learning_rate', s.learning_rate && num(s.learning_rate.value), s.learning_rate);
  put('max_completion_length', s.max_response_length && int(s.max_response_length.value), s.max_response_length);
  put('max_steps', s.steps && !/epoch/i.test(s.steps.value) ? int(s.steps.value) : undefined, s.steps);
  if (s.is_level)
    put(
      'importance_sampling_level',
      /sequence/i.test(s.is_level.value) ? '"sequence"' : /token/i.test(s.is_level.value) ? '"token"' : undefined,
      s.is_level,
    );
  if (s.loss_aggregation) {
    const v = s.loss_aggregation.value;
    put(
      'loss_type',
      /constant|dr/i.test(v) ? '"dr_grpo"' : /token/i.test(v) ? '"dapo"' : /sequence/i.test(v) ? '"grpo"' : undefined,
      s.loss_aggregation,
    );
  }
  if (s.advantage_norm) {
    const v = s.advantage_norm.value;
    put(
      'scale_rewards',
      /no std|mean only|without/i.test(v)
        ? '"none"'
        : /batch/i.test(v)
          ? '"batch"'
          : /std/i.test(v)
            ? '"group"'
            : undefined,
      s.advantage_norm,
    );
  }
  if (s.length_handling) {
    if (/filter|mask/i.test(s.length_handling.value)) put('mask_truncated_completions', 'True', s.length_handling);
    else if (/soft overlong/i.test(s.length_handling.value))
      notes.push('soft overlong punishment: add trl.rewards.get_soft_overlong_punishment(...) to reward_funcs');
    else cannot.push(`length handling "${s.length_handling.value}"`);
  }
  if (s.batch_size && s.group_size) {
    const prompts = int(s.batch_size.value);
    const g = int(s.group_size.value);
    if (prompts && g && !/response|sample|rollout|trajector/i.test(s.batch_size.value)) {
      put(
        'generation_batch_size',
        String(Number(prompts) * Number(g)),
        s.batch_size,
        `${prompts} prompts × G=${g}; TRL counts completions`,
      );
    }
  }
  if (s.batch_size && !args.some((a) => a.name === 'generation_batch_size'))
    notes.push(
      `batch size ${s.batch_size.value}: set per_device_train_batch_size × GPUs × gradient_accumulation_steps to match`,
    );
  if (s.reward) notes.push(`reward: ${s.reward.value} (reward_funcs; trl.rewards.accuracy_reward checks math answers)`);
  if (s.datasets) notes.push(`train_dataset: ${s.datasets.value}`);
  return { args, notes, cannot };
}

/** The recipe for a paper (its settings and its families), for the current TRL release of families.ts. */
export function trlRecipe(items: readonly Setting[], families: readonly string[]): Recipe {
  const family = baseFamily(families);
  const fromPaper = paperArgs(items);
  const fromFamily = family ? familyArgs(family).filter((a) => !fromPaper.args.some((p) => p.name === a.name)) : [];
  const trainer =
    family?.trl.support === 'none'
      ? 'GRPOTrainer (the closest TRL has)'
      : family?.name === 'RLOO'
        ? 'RLOOTrainer'
        : 'GRPOTrainer';
  const cannot = [...(family?.trl.missing ?? []), ...fromPaper.cannot];
  const model = byKey(items).base_model?.value ?? null;
  return {
    trlVersion: TRL_DOC_VERSION,
    trainer,
    family: family?.name ?? null,
    model,
    args: [...fromPaper.args, ...fromFamily],
    notes: fromPaper.notes,
    cannot,
  };
}

/** The recipe as a Python snippet: `GRPOConfig(...)` with a comment per argument saying where it comes from. */
export function recipeCode(r: Recipe, opts: { comments?: boolean } = {}): string {
  const width = Math.max(0, ...r.args.map((a) => a.name.length + a.value.length + 2));
  const lines = r.args.map((a) => {
    const arg = `${a.name}=${a.value},`;
    if (!opts.comments) return `    ${arg}`;
    const why = a.from === 'paper' ? `paper${a.note ? `: ${a.note}` : ''}` : `${r.family ?? 'family'} recipe`;
    return `    ${arg.padEnd(width + 1)} # ${why}`;
  });
  const model = r.model ? `# model: ${r.model.split(',')[0]!.trim()}\n` : '';
  return `${model}GRPOConfig(\n${lines.join('\n')}\n)`;
}

/**
 * What a paper's card may claim about reproducing it, and nothing more:
 *   paper        the paper states settings: its recipe, gaps filled from a family it truly belongs to
 *                (each such argument marked as the family's);
 *   family       no settings stated: the closest family recipe, said to be the family's (never as the paper's);
 *   unsupported  no settings stated and its family has no TRL form: that, with what TRL lacks;
 *   none         outside the GRPO family, a survey, an analysis or a benchmark (they train nothing
 *                to reproduce), or a paper that names no family and states no settings.
 * Every caveat is about the family on screen, and a caveat about some of its papers (GRPO's process
 * supervision) only where the paper's own text is about that. Never an empty GRPOConfig.
 */
export type CardRecipe =
  | { kind: 'none'; why: string }
  | { kind: 'paper'; recipe: Recipe }
  | { kind: 'family'; family: string; recipe: Recipe; trainer: string[] }
  | { kind: 'unsupported'; family: string; missing: string[] };

export interface RecipePaper {
  title: string;
  abstract: string;
  families: readonly string[];
  grpoFamily: boolean | null;
}

/** The family's gaps that apply to this paper (its title and abstract decide the conditional ones). */
function applicableGaps(f: FamilyEntry, text: string): string[] {
  return f.trl.missing.filter((m) => {
    const when = f.trl.missingOnlyWhen?.[m];
    return !when || when.test(text);
  });
}

export function cardRecipe(p: RecipePaper, items: readonly Setting[]): CardRecipe {
  if (!p.grpoFamily) return { kind: 'none', why: 'not in the GRPO family' };
  const kind = paperKind(p);
  if (kind !== 'trains') return { kind: 'none', why: `a ${kind} trains nothing to reproduce` };
  const text = `${p.title}\n${p.abstract}`;
  const family = baseFamily(p.families, { fallback: false });
  const fromPaper = paperArgs(items);
  if (fromPaper.args.length > 0) {
    const r = trlRecipe(items, family ? [family.name] : []);
    const gaps = family ? applicableGaps(family, text) : [];
    return {
      kind: 'paper',
      recipe: {
        ...r,
        family: family?.name ?? null,
        // Without a true family, nothing but the paper's own settings.
        args: family ? r.args : fromPaper.args,
        cannot: [...gaps, ...fromPaper.cannot],
      },
    };
  }
  if (!family) return { kind: 'none', why: 'no settings stated and no family named' };
  const gaps = applicableGaps(family, text);
  if (family.trl.support === 'none') return { kind: 'unsupported', family: family.name, missing: gaps };
  const r = trlRecipe([], [family.name]);
  // A family whose TRL form is a trainer or reward functions rather than GRPOConfig arguments (RLVR, RLOO).
  const trainer = family.trl.settings
    .filter((s) => /Trainer|reward_funcs|import /.test(s.setting))
    .map((s) => s.setting);
  if (r.args.length === 0 && trainer.length === 0) return { kind: 'none', why: 'the family has no TRL arguments' };
  return { kind: 'family', family: family.name, recipe: { ...r, cannot: gaps }, trainer };
}
