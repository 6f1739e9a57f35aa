import type { CommandDefinition, CommandInput, OptionDefinition, OptionValue } from './command.ts';
import { UserFacingError } from './errors.ts';

/** The options a (sub)command declares. */
export function optionsFor(def: CommandDefinition, subcommand?: string): readonly OptionDefinition[] {
  if (!def.subcommands?.length) return def.options ?? [];
  const sub = def.subcommands.find((s) => s.name === subcommand);
  if (!sub) {
    const names = def.subcommands.map((s) => s.name).join(', ');
    throw new UserFacingError(`/${def.name} needs a subcommand: ${names}.`);
  }
  return sub.options ?? [];
}

/**
 * Checks and coerces options against the definition, server side, whatever the client sent:
 * unknown or missing options, wrong types and out-of-range values become one clear UserFacingError.
 */
export function validateOptions(def: CommandDefinition, input: Pick<CommandInput, 'subcommand' | 'options'>): Record<string, OptionValue> {
  const defs = optionsFor(def, input.subcommand);
  const usage = `/${def.name}${input.subcommand ? ` ${input.subcommand}` : ''}`;
  const out: Record<string, OptionValue> = {};
  for (const name of Object.keys(input.options)) {
    if (!defs.some((d) => d.name === name)) {
      const known = defs.map((d) => d.name).join(', ') || 'none';
      throw new UserFacingError(`${usage} has no option \`${name}\` (options: ${known}).`);
    }
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
      const s = String(raw).trim();
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
