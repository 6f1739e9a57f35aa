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
}

export interface Embed {
  title?: string;
  url?: string;
  description?: string;
  fields?: EmbedField[];
  footer?: string;
  color?: number;
}

export interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export type Button =
  | { kind: 'action'; customId: string; label: string; style?: 'primary' | 'secondary' | 'success' | 'danger'; disabled?: boolean }
  | { kind: 'link'; url: string; label: string };

/** A short ephemeral message: what went wrong and what to do. */
export function errorReply(message: string): Reply {
  return { content: message, ephemeral: true };
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
} as const;

/** Cuts text to `max` characters (code points), ending with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max - 1).join('').trimEnd()}…`;
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
  return text
    .replace(/@(everyone|here)\b/gi, `@${ZWSP}$1`)
    .replace(/<(@[!&]?|#)(\d+)>/g, `<${ZWSP}$1$2>`);
}
