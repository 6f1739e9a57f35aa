/**
 * Typed custom ids for buttons and menus: `<command>[:<action>]:<field>:...`, at most 100 characters
 * (Discord's limit). A codec encodes typed values and decodes a pressed id back, or returns null for
 * an id that is not its own or is malformed, so a handler never reads raw strings. Every id the bot
 * emits is declared in `CUSTOM_IDS` below, grouped by the command that answers it.
 */

/**
 * `int`: a whole number up to 2^31-1 (pages, paper ids: a Postgres integer, so a forged bigger one is a
 * bad id, not a failed query); `id`: a token of letters, digits, `_ . - *` (user ids, keys, slugs).
 */
type FieldKind = 'int' | 'id';
type FieldSpec = Readonly<Record<string, FieldKind>>;
export type CustomIdValues<S extends FieldSpec> = { -readonly [K in keyof S]: S[K] extends 'int' ? number : string };

export interface CustomIdCodec<S extends FieldSpec> {
  /** The first segment: the command that answers these ids, or a prefix it declares (`componentPrefixes`). */
  readonly prefix: string;
  encode(values: CustomIdValues<S>): string;
  decode(customId: string): CustomIdValues<S> | null;
}

const FIELD: Record<FieldKind, RegExp> = { int: /^(0|[1-9]\d{0,9})$/, id: /^[A-Za-z0-9_.*-]{1,64}$/ };
const MAX_INT = 2 ** 31 - 1;
const fits = (kind: FieldKind, text: string) => FIELD[kind].test(text) && (kind !== 'int' || Number(text) <= MAX_INT);
const MAX_LENGTH = 100;

export function customIdCodec<const S extends FieldSpec>(
  prefix: string,
  action: string | null,
  fields: S,
): CustomIdCodec<S> {
  const head = action ? [prefix, action] : [prefix];
  const names = Object.keys(fields) as (keyof S & string)[];
  return {
    prefix,
    encode(values) {
      const parts = names.map((name) => {
        const text = String(values[name]);
        if (!fits(fields[name]!, text))
          throw new RangeError(
            `custom id field ${name} of ${head.join(':')} is not ${fields[name]}: ${text.slice(0, 40)}`,
          );
        return text;
      });
      const id = [...head, ...parts].join(':');
      if (id.length > MAX_LENGTH)
        throw new RangeError(`custom id over ${MAX_LENGTH} characters: ${id.slice(0, 40)}...`);
      return id;
    },
    decode(customId) {
      const parts = customId.split(':');
      if (parts.length !== head.length + names.length || head.some((h, i) => parts[i] !== h)) return null;
      const out: Record<string, string | number> = {};
      for (const [i, name] of names.entries()) {
        const raw = parts[head.length + i]!;
        if (!fits(fields[name]!, raw)) return null;
        out[name] = fields[name] === 'int' ? Number(raw) : raw;
      }
      return out as CustomIdValues<S>;
    },
  };
}

/** Every button id the bot emits. */
export const CUSTOM_IDS = {
  /** Search results' Previous/Next: only the searcher may page; the query is saved under `key`. */
  paperPage: customIdCodec('paper', 'page', { user: 'id', key: 'id', page: 'int' }),
  /** `/paper random`'s "Another one" (`topic` is `*` for any). */
  paperRandom: customIdCodec('paper', 'random', { user: 'id', topic: 'id' }),
  /** A paper card's Reproduce (its TRL recipe) and Evidence (its settings' quotes); /compare's evidence buttons too. */
  paperRecipe: customIdCodec('paper', 'recipe', { paper: 'int' }),
  paperEvidence: customIdCodec('paper', 'evidence', { paper: 'int' }),
  askSources: customIdCodec('ask', 'sources', { key: 'id' }),
  askMore: customIdCodec('ask', 'more', { key: 'id' }),
  familyPage: customIdCodec('family', 'page', { slug: 'id', page: 'int' }),
  queuePage: customIdCodec('queue', 'page', { page: 'int' }),
  queueHistory: customIdCodec('queue', 'history', { page: 'int' }),
  /** The digest card's "Vote for reading group", answered by /queue (its `componentPrefixes`); posted digests keep this form. */
  vote: customIdCodec('vote', null, { paper: 'int' }),
} as const;
