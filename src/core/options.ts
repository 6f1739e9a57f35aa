import type { CommandDefinition, CommandInput, OptionDefinition, OptionValue } from './command.ts';
import { UserFacingError } from './errors.ts';
import { stripUnsafeChars } from './reply.ts';
import { editDistance } from './edit-distance.ts';

/** The closest of `names` to a mistyped one (within two edits), for a "did you mean" hint. */
export function closest(typed: string, names: readonly string[]): string | undefined {
  const t = typed.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = name.startsWith(t) && t.length >= 2 ? 0 : editDistance(t, name, 2);
    if (d <= 2 && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

const didYouMean = (typed: string, names: readonly string[], show: (n: string) => string) => {
  const hint = closest(typed, names);
  return hint ? ` Did you mean ${show(hint)}?` : '';
};

/** The options a (sub)command declares. */
export function optionsFor(def: CommandDefinition, subcommand?: string): readonly OptionDefinition[] {
  if (!def.subcommands?.length) return def.options ?? [];
  const sub = def.subcommands.find((s) => s.name === subcommand);
  if (!sub) {
    const names = def.subcommands.map((s) => s.name);
    if (!subcommand) throw new UserFacingError(`/${def.name} needs a subcommand: ${names.join(', ')}.`);
    const hint = didYouMean(subcommand, names, (n) => `/${def.name} ${n}`);
    throw new UserFacingError(
      `/${def.name} has no subcommand \`${subcommand.slice(0, 40)}\`.${hint} Subcommands: ${names.join(', ')}.`,
    );
  }
  return sub.options ?? [];
}

/** "unknown option `lmit`; options of /paper search: query, limit, page": the one message for an option a (sub)command lacks. */
export function unknownOption(def: CommandDefinition, subcommand: string | undefined, name: string): UserFacingError {
  const known = optionsFor(def, subcommand).map((d) => d.name);
  const usage = `/${def.name}${subcommand ? ` ${subcommand}` : ''}`;
  const hint = didYouMean(name, known, (n) => `\`${n}:\``);
  return new UserFacingError(
    `Unknown option \`${name.slice(0, 40)}\`; options of ${usage}: ${known.join(', ') || 'none'}.${hint}`,
  );
}

/**
 * Checks and coerces options against the definition, server side, whatever the client sent:
 * unknown or missing options, wrong types and out-of-range values become one clear UserFacingError.
 */
export function validateOptions(
  def: CommandDefinition,
  input: Pick<CommandInput, 'subcommand' | 'options'>,
): Record<string, OptionValue> {
  const defs = optionsFor(def, input.subcommand);
  const usage = `/${def.name}${input.subcommand ? ` ${input.subcommand}` : ''}`;
  const out: Record<string, OptionValue> = {};
  for (const name of Object.keys(input.options)) {
    if (!defs.some((d) => d.name === name)) throw unknownOption(def, input.subcommand, name);
  }
  for (const d of defs) {
    const raw = input.options[d.name];
    if (raw === undefined || raw === '') {
      if (d.required) throw new UserFacingError(`${usage} needs \`${d.name}\`: ${d.description}.`);
      continue;
    }
    out[d.name] = coerce(d, raw, usage);
  }
  return out;
}

function coerce(d: OptionDefinition, raw: OptionValue, usage: string): OptionValue {
  const where = `\`${d.name}\` in ${usage}`;
  // A client sends strings, numbers and booleans; anything else (an object, an array, null) is refused,
  // never converted (String() of an object can throw).
  if (!['string', 'number', 'boolean'].includes(typeof raw)) throw new UserFacingError(`${where} must be ${kind(d)}.`);
  // A choice may be typed by its name (weekday:monday), as Discord's menu shows names.
  const named = d.choices?.find((c) => typeof raw === 'string' && c.name.toLowerCase() === raw.trim().toLowerCase());
  if (named) return named.value;
  if (
    d.choices &&
    (d.type === 'integer' || d.type === 'number') &&
    !d.choices.some((c) => String(c.value) === String(raw).trim())
  ) {
    throw new UserFacingError(`${where} must be one of: ${d.choices.map((c) => c.name).join(', ')}.`);
  }
  switch (d.type) {
    case 'integer':
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(n) || (d.type === 'integer' && !Number.isInteger(n))) {
        throw new UserFacingError(`${where} must be ${d.type === 'integer' ? 'a whole number' : 'a number'}.`);
      }
      if ((d.minValue !== undefined && n < d.minValue) || (d.maxValue !== undefined && n > d.maxValue)) {
        throw new UserFacingError(`${where} must be between ${d.minValue ?? '-∞'} and ${d.maxValue ?? '∞'}.`);
      }
      return n;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const s = String(raw).toLowerCase();
      if (['true', 'yes', '1', 'on'].includes(s)) return true;
      if (['false', 'no', '0', 'off'].includes(s)) return false;
      throw new UserFacingError(`${where} must be true or false.`);
    }
    default: {
      // Control and invisible characters (a NUL from a pasted or piped line) are dropped: Postgres refuses NUL.
      const s = stripUnsafeChars(String(raw)).trim();
      const len = Array.from(s).length;
      if (d.maxLength !== undefined && len > d.maxLength) {
        throw new UserFacingError(`${where} is too long (${len} characters; at most ${d.maxLength}).`);
      }
      if (d.minLength !== undefined && len < d.minLength) {
        throw new UserFacingError(`${where} is too short (at least ${d.minLength} characters).`);
      }
      if (d.choices && !d.choices.some((c) => String(c.value) === s)) {
        throw new UserFacingError(`${where} must be one of: ${d.choices.map((c) => c.value).join(', ')}.`);
      }
      return s;
    }
  }
}

/** What a value of an option's type is called in a refusal. */
function kind(d: OptionDefinition): string {
  if (d.type === 'integer') return 'a whole number';
  if (d.type === 'number') return 'a number';
  if (d.type === 'boolean') return 'true or false';
  return 'text';
}
