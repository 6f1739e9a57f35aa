import type { Command, OptionValue } from '../command.ts';
import { UserFacingError } from '../errors.ts';
import { optionsFor } from '../options.ts';

export interface ParsedLine {
  command: Command;
  subcommand?: string;
  options: Record<string, OptionValue>;
}

/**
 * Parses a console line typed as in Discord: `/paper search query:group relative limit:3`.
 * An option's value runs until the next `name:` of an option that (sub)command declares, so values
 * may contain spaces and colons (`query:what is GRPO: a survey`). Surrounding quotes are removed.
 */
export function parseCommandLine(line: string, find: (name: string) => Command | undefined): ParsedLine {
  const text = line.trim().replace(/^\//, '');
  const [name = '', ...rest] = text.split(/\s+/);
  const command = find(name.toLowerCase());
  if (!command) throw new UserFacingError(`Unknown command /${name}. Type /help to see the commands.`);
  let remainder = rest.join(' ');
  let subcommand: string | undefined;
  if (command.definition.subcommands?.length) {
    const [sub = '', ...after] = remainder.split(/\s+/);
    subcommand = sub.toLowerCase() || undefined;
    remainder = after.join(' ');
  }
  const names = optionsFor(command.definition, subcommand).map((o) => o.name);
  return { command, subcommand, options: splitOptions(remainder, names) };
}

function splitOptions(text: string, names: string[]): Record<string, OptionValue> {
  const options: Record<string, OptionValue> = {};
  if (!text.trim()) return options;
  const marker = /(?:^|\s)([a-z][\w-]*):/gi;
  const starts = [...text.matchAll(marker)].filter((m) => names.includes(m[1]!.toLowerCase()));
  if (starts.length === 0 || text.slice(0, starts[0]!.index).trim()) {
    const hint = names.length ? `Write options as name:value (${names.map((n) => `${n}:`).join(' ')}).` : 'This command takes no options.';
    throw new UserFacingError(`Could not read "${text.trim()}". ${hint}`);
  }
  starts.forEach((m, i) => {
    const valueStart = m.index! + m[0].length;
    const valueEnd = i + 1 < starts.length ? starts[i + 1]!.index! : text.length;
    options[m[1]!.toLowerCase()] = text.slice(valueStart, valueEnd).trim().replace(/^"(.*)"$/s, '$1');
  });
  return options;
}

/**
 * `/press <custom id>`: the console's way to press a button, since a terminal has none to click.
 * Returns the custom id, or undefined when the line is not a press.
 */
export function parsePressLine(line: string): string | undefined {
  const m = /^\/press(?:\s+(.*))?$/i.exec(line.trim());
  if (!m) return undefined;
  const id = (m[1] ?? '').trim().replace(/^\[?(.*?)\]?$/, '$1');
  if (!id) throw new UserFacingError('Write /press followed by a button\'s id, as shown next to it (e.g. /press paper:page:console:AbC123:2).');
  return id;
}
