import type { Command, OptionValue } from '../../core/command.ts';
import { UserFacingError } from '../../core/errors.ts';
import { closest, optionsFor, unknownOption } from '../../core/options.ts';

export interface ParsedLine {
  command: Command;
  subcommand?: string;
  options: Record<string, OptionValue>;
}

/** Words a newcomer types to leave or get help, without the slash. */
const BARE_WORDS: Record<string, string> = {
  quit: 'To leave the console, type /quit (or press Ctrl-D).',
  exit: 'To leave the console, type /quit (or press Ctrl-D).',
  help: 'Type /help to see the commands.',
};

/**
 * Parses a console line typed as in Discord: `/paper search query:group relative limit:3`.
 * An option's value runs until the next `name:` of an option that (sub)command declares, so values
 * may contain spaces and colons (`query:what is GRPO: a survey`). A `word:value` whose word is not an
 * option (`lmit:3`) is refused rather than read as part of the previous value (see `STRAY`; quote a
 * value to keep such a word in it).
 * Surrounding quotes are removed (`query:"KL penalty"` is the query KL penalty). A quote that belongs
 * to the value is written `\"` (or the value doubled-quoted): `query:"\"entropy collapse\""`,
 * `query:\"entropy collapse\"` and `query:""entropy collapse""` all search the phrase "entropy collapse".
 */
export function parseCommandLine(
  line: string,
  find: (name: string) => Command | undefined,
  names: readonly string[] = [],
): ParsedLine {
  const trimmed = line.trim();
  const bare = BARE_WORDS[trimmed.toLowerCase()];
  if (bare) throw new UserFacingError(bare);
  const text = trimmed.replace(/^\//, '');
  const [name = '', ...rest] = text.split(/\s+/);
  const command = find(name.toLowerCase());
  if (!command) {
    const hint = closest(name, names);
    throw new UserFacingError(
      `Unknown command /${name.slice(0, 40)}.${hint ? ` Did you mean /${hint}?` : ''} Type /help to see the commands.`,
    );
  }
  // An escaped quote is the value's own: hidden from the quoting rules below, restored in each value.
  let remainder = rest.join(' ').replaceAll('\\"', LITERAL_QUOTE);
  let subcommand: string | undefined;
  if (command.definition.subcommands?.length) {
    const [sub = '', ...after] = remainder.split(/\s+/);
    subcommand = sub.toLowerCase() || undefined;
    remainder = after.join(' ');
  }
  const declared = optionsFor(command.definition, subcommand).map((o) => o.name);
  // A quoted value is taken as typed: `query:"loss_type:dr_grpo"` is a query, not an option.
  const unquoted = remainder.replace(/"[^"]*"/g, (q) => ' '.repeat(q.length));
  const stray = [...unquoted.matchAll(STRAY)].find((m) => !declared.includes(m[1]!.toLowerCase()));
  if (stray) throw unknownOption(command.definition, subcommand, stray[1]!);
  return { command, subcommand, options: splitOptions(remainder, declared) };
}

/**
 * `word:value` with no space after the colon, the word in lower case and the value not `//` (a URL):
 * how an option is typed. Words in other cases (`arXiv:2507.18071`, `GRPO: a survey`) and URLs stay
 * part of the value they are in.
 */
const STRAY = /(?:^|\s)([a-z][a-z_-]*):(?=[^\s/])/g;

/** Stands for a `\"` while a line is split into options (a character no one types). */
const LITERAL_QUOTE = '\u0000';

function splitOptions(text: string, names: string[]): Record<string, OptionValue> {
  const options: Record<string, OptionValue> = {};
  if (!text.trim()) return options;
  const marker = /(?:^|\s)([a-z][\w-]*):/gi;
  const starts = [...text.matchAll(marker)].filter((m) => names.includes(m[1]!.toLowerCase()));
  if (starts.length === 0 || text.slice(0, starts[0]!.index).trim()) {
    const hint = names.length
      ? `Write options as name:value (${names.map((n) => `${n}:`).join(' ')}).`
      : 'This command takes no options.';
    throw new UserFacingError(`Could not read "${text.trim()}". ${hint}`);
  }
  starts.forEach((m, i) => {
    const name = m[1]!.toLowerCase();
    // Discord cannot send an option twice; the console used to keep the last one silently.
    if (name in options) throw new UserFacingError(`${name}: is given twice. Give it once, e.g. ${name}:<one value>.`);
    const valueStart = m.index! + m[0].length;
    const valueEnd = i + 1 < starts.length ? starts[i + 1]!.index! : text.length;
    options[m[1]!.toLowerCase()] = text
      .slice(valueStart, valueEnd)
      .trim()
      .replace(/^"([^"]*)"$/s, '$1')
      .replaceAll(LITERAL_QUOTE, '"');
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
  if (!id)
    throw new UserFacingError(
      "Write /press followed by a button's id, as shown next to it (e.g. /press paper:page:console:AbC123:2).",
    );
  return id;
}
