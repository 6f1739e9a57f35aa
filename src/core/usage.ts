import type { CommandDefinition, OptionDefinition } from './command.ts';

/** One usage line per (sub)command: `/paper search query:<text> [limit]`. */
export function commandUsage(def: CommandDefinition): { usage: string; description: string }[] {
  const fmt = (opts: readonly OptionDefinition[] = []) =>
    opts.map((o) => (o.required ? `${o.name}:<${o.type === 'string' ? 'text' : o.type}>` : `[${o.name}]`)).join(' ');
  if (def.subcommands?.length) {
    return def.subcommands.map((s) => ({
      usage: `/${def.name} ${s.name} ${fmt(s.options)}`.trim(),
      description: s.description,
    }));
  }
  return [{ usage: `/${def.name} ${fmt(def.options)}`.trim(), description: def.description }];
}
