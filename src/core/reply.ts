/**
 * The platform-neutral reply every command returns. The Discord adapter turns it into a
 * discord.js payload, the console adapter into text. Plain data, no functions.
 */
export interface Reply {
  content?: string;
  embeds?: Embed[];
  /** Rows of buttons (Discord allows 5 rows of 5). */
  components?: Button[][];
  /** Only the caller sees it (errors, personal lists). */
  ephemeral?: boolean;
  /** Files sent with the message (pictures, `.bib`): an embed shows the picture it names in `image`; the console saves them and prints their paths. */
  files?: ReplyFile[];
}

/** A file sent with a reply: a PNG picture (the family tree, a trend chart, a digest's header) or a BibTeX file. */
export interface ReplyFile {
  /** The file name, e.g. `family-tree-gspo.png`: lower-case letters, digits and dashes, then `.png` or `.bib`. */
  name: string;
  /** The file's bytes. */
  data: Uint8Array;
  /** What the file holds, for screen readers (Discord's alt text, at most 1,024 characters). */
  description: string;
  /** A picture's size in pixels; absent for other files. */
  width?: number;
  height?: number;
}

export interface Embed {
  title?: string;
  url?: string;
  description?: string;
  fields?: EmbedField[];
  footer?: string;
  color?: number;
  /** The name of one of the reply's `files`, shown as the embed's picture. */
  image?: string;
}

export interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export type Button =
  | {
      kind: 'action';
      customId: string;
      label: string;
      style?: 'primary' | 'secondary' | 'success' | 'danger';
      disabled?: boolean;
    }
  | { kind: 'link'; url: string; label: string };

/** A short ephemeral message: what went wrong and what to do. It may echo what a member typed: never a ping. */
export function errorReply(message: string): Reply {
  return { content: defusePings(message), ephemeral: true };
}

/** Discord's limits, enforced when replies are built rather than discovered by failures. */
export const LIMITS = {
  content: 2000,
  embedsPerMessage: 10,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  buttonLabel: 80,
  buttonsPerRow: 5,
  rows: 5,
  fileDescription: 1024,
} as const;

/** Characters of an embed that count toward Discord's per-message total. */
export function embedSize(e: Embed): number {
  return (
    (e.title?.length ?? 0) +
    (e.description?.length ?? 0) +
    (e.footer?.length ?? 0) +
    (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

/** At most 25 fields, trailing ones dropped until the embed fits Discord's 6,000-character total. */
export function fitEmbed(e: Embed): Embed {
  const fields = [...(e.fields ?? [])].slice(0, LIMITS.fields);
  while (embedSize({ ...e, fields }) > LIMITS.embedTotal && fields.length > 0) fields.pop();
  return { ...e, fields };
}

/** Cuts text to `max` characters (code points), ending with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/**
 * C0 and C1 control characters except tab and newline (NUL breaks Postgres, ESC and CSI drive
 * terminals) and bidirectional overrides and isolates (text that reads differently from what it is).
 */
const CONTROLS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';
/** Zero-width characters and bidi marks: hidden text, split words. */
const INVISIBLE = '\\u200b-\\u200f\\u2060-\\u2064\\ufeff';
/** Lone UTF-16 surrogates (Postgres and jsonb reject them). No `u` flag: surrogates are matched one by one. */
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

/** Characters no paper text needs and an attacker can use. */
const UNSAFE_CHARS = new RegExp(`[${CONTROLS}${INVISIBLE}]|${LONE_SURROGATE}`, 'g');
const CONTROL_CHARS = new RegExp(`[${CONTROLS}]`, 'g');

/** Removes UNSAFE_CHARS. Every untrusted text (feeds, LLM output, command options) passes here before it is stored or shown. */
export function stripUnsafeChars(text: string): string {
  return text.replace(UNSAFE_CHARS, '');
}

/**
 * Removes control characters and bidi overrides from text written to a terminal (the console, the
 * CLI): no escape sequence reaches it. Keeps zero-width spaces, which defuse mentions in what is shown.
 */
export function stripControlChars(text: string): string {
  return text.replace(CONTROL_CHARS, '');
}

/** Replaces each of UNSAFE_CHARS (e.g. with a `\u` escape, where the text must stay exact). */
export function replaceUnsafeChars(text: string, by: (char: string) => string): string {
  return text.replace(UNSAFE_CHARS, by);
}

/**
 * Escapes Discord markdown so untrusted text shows as typed: `*`, `_`, `~`, `|`, backticks and
 * brackets (so `[x](http://evil.example)` is never a masked link), and `#`, `>`, `-` at a line's
 * start. LaTeX stays readable: `$\epsilon$` is untouched, and `$x_i$` shows as typed.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\]?)([*_~|`[\]])/g, (_m, bs: string, ch: string) => `${bs ? '\\\\' : ''}\\${ch}`)
    .replace(/^([#>-])/gm, '\\$1');
}

/**
 * Paper text, HF fields and LLM output made safe to put inside a Discord message: unsafe characters
 * removed, markdown shown as text, mentions defused. The one function every view uses for them.
 */
export function untrustedText(text: string): string {
  return neutralizeMentions(escapeMarkdown(stripUnsafeChars(text)));
}

/**
 * For LLM answers, whose markdown (bold, lists) is kept: a masked link `[text](target)` shows its
 * target as text instead, so an answer steered by a paper's text cannot hide where a link goes.
 */
export function defuseLinks(markdown: string): string {
  return neutralizeMentions(stripUnsafeChars(markdown)).replace(
    /\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?[^)]*\)/g,
    (_m, text: string, target: string) => `${text} (${target.replace(/^https?:\/\//i, '')})`,
  );
}

/** Zero-width space: breaks a mention's syntax without changing what a reader sees. */
const ZWSP = '\u200b';

/**
 * Makes text unable to ping anyone on Discord: `@everyone`, `@here`, user `<@1>`/`<@!1>`, role `<@&1>`
 * and channel `<#1>` mentions get a zero-width space after the `@` or `<`. Every text that comes from
 * papers or the LLM passes through this; the adapter also sends `allowedMentions: {parse: []}`, so this
 * is the second line of defence, not the only one.
 */
export function neutralizeMentions(text: string): string {
  if (!/[@<]/.test(text)) return text;
  return defusePings(text).replace(/<#(\d+)>/g, `<${ZWSP}#$1>`);
}

/**
 * The pings of a text defused (`@everyone`, `@here`, users, roles) and its channel links kept: for
 * refusals, which echo what a member typed and may name a channel the bot wrote.
 */
export function defusePings(text: string): string {
  return text.replace(/@(everyone|here)\b/gi, `@${ZWSP}$1`).replace(/<(@[!&]?)(\d+)>/g, `<${ZWSP}$1$2>`);
}
