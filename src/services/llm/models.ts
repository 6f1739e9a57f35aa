/**
 * The models the bot knows: list price and whether it supports structured outputs
 * (`output_config.format`), which every summary and /ask request uses. Pure data and lookups.
 *
 * Prices in US dollars per million tokens, from Anthropic's pricing and model pages (checked
 * 2026-11). Structured outputs: Anthropic's structured-outputs page lists Haiku 4.5, Sonnet 4.5/4.6
 * and Opus 4.5/4.6 (`yes`); Opus 4.7/4.8 are listed in later references (`yes`); Fable 5 and Mythos 5
 * do not support it, nor do the models before the 4.5 generation (`no`); for the 5.x models we have
 * not seen it stated either way (`unverified`: the start-up log says so, and if the API rejects
 * `output_config` the run stops with that message instead of failing the backlog).
 */
export interface ModelInfo {
  /** The id without a date suffix or `-latest`/`-0` alias (`claude-3-5-haiku-20241022` -> `claude-3-5-haiku`). */
  id: string;
  input: number;
  output: number;
  /** Cache hits as a fraction of the input price (0.1 for most models). */
  cacheRead?: number;
  structuredOutputs: 'yes' | 'no' | 'unverified';
}

const row = (
  id: string,
  input: number,
  output: number,
  structuredOutputs: ModelInfo['structuredOutputs'],
  cacheRead?: number,
): ModelInfo => ({ id, input, output, structuredOutputs, ...(cacheRead !== undefined && { cacheRead }) });

export const MODELS: readonly ModelInfo[] = [
  row('claude-haiku-4-5', 1, 5, 'yes'),
  row('claude-sonnet-4-5', 3, 15, 'yes'),
  row('claude-sonnet-4-6', 3, 15, 'yes'),
  row('claude-opus-4-5', 5, 25, 'yes'),
  row('claude-opus-4-6', 5, 25, 'yes'),
  row('claude-opus-4-7', 5, 25, 'yes'),
  row('claude-opus-4-8', 5, 25, 'yes'),
  // Haiku 5.5's price holds for prompts up to 100k tokens (ours are a few thousand).
  row('claude-haiku-5-5', 0.1, 0.5, 'unverified'),
  row('claude-sonnet-5', 2, 10, 'unverified'),
  row('claude-sonnet-5-5', 2, 10, 'unverified', 0.05),
  row('claude-opus-5', 5, 25, 'unverified'),
  row('claude-opus-5-5', 4, 20, 'unverified', 0.05),
  row('claude-fable-5-1', 10, 50, 'unverified', 0.025),
  row('claude-mythos-5-1', 10, 50, 'unverified', 0.025),
  row('claude-fable-5', 10, 50, 'no'),
  row('claude-mythos-5', 10, 50, 'no'),
  // Older generations: priced so spend stays right for a while, but they cannot do structured outputs.
  row('claude-sonnet-4', 3, 15, 'no'),
  row('claude-opus-4-1', 15, 75, 'no'),
  row('claude-opus-4', 15, 75, 'no'),
  row('claude-3-7-sonnet', 3, 15, 'no'),
  row('claude-3-5-haiku', 0.8, 4, 'no'),
  row('claude-3-haiku', 0.25, 1.25, 'no'),
];

/** `claude-3-5-haiku-20241022` -> `claude-3-5-haiku`; `claude-sonnet-4-0` -> `claude-sonnet-4`; `claude-3-5-haiku-latest` -> `claude-3-5-haiku`. */
export const baseModelId = (model: string): string =>
  model
    .trim()
    .toLowerCase()
    .replace(/-(\d{8}|latest)$/, '')
    .replace(/-(\d+)-0$/, '-$1');

export function modelInfo(model: string): ModelInfo | undefined {
  const id = baseModelId(model);
  return MODELS.find((m) => m.id === id);
}

/** What an unknown model is priced as: the dearest row, so the daily budget errs on the side of spending less. */
export const DEAREST: ModelInfo = MODELS.reduce((a, b) =>
  b.output > a.output || (b.output === a.output && b.input > a.input) ? b : a,
);

const cheapestStructured = () =>
  MODELS.filter((m) => m.structuredOutputs === 'yes').sort((a, b) => a.output - b.output);

/**
 * Whether the bot can run on a model: `error` when it cannot (the start refuses, naming the variable),
 * `warning` when it may (unknown to this table, or structured outputs not verified), neither when it can.
 */
export function checkModel(model: string): { error?: string; warning?: string } {
  const info = modelInfo(model);
  const good = cheapestStructured()
    .slice(0, 3)
    .map((m) => m.id)
    .join(', ');
  if (!info) {
    return {
      warning:
        `ANTHROPIC_MODEL=${model} is not in src/services/llm/models.ts: spend is counted at the dearest listed price ($${DEAREST.input}/$${DEAREST.output} per million tokens), ` +
        `and whether it supports structured outputs is unknown (if the API rejects them, summaries stop and say so). Models known to work: ${good}.`,
    };
  }
  if (info.structuredOutputs === 'no') {
    return {
      error: `ANTHROPIC_MODEL=${model} does not support structured outputs, which summaries and /ask need: the API would reject every request. Use one of: ${good} (the first is the cheapest).`,
    };
  }
  if (info.structuredOutputs === 'unverified') {
    return {
      warning: `ANTHROPIC_MODEL=${model}: structured-output support is not verified for this model (if the API rejects it, summaries stop and say so). Models known to work: ${good}.`,
    };
  }
  return {};
}
