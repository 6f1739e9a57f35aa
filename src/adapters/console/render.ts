import { stripControlChars, type Button, type Embed, type Reply, type ReplyFile } from '../../core/reply.ts';

/**
 * Markdown links become `label <url>`, bold markers go, Discord timestamps become UTC, channel and
 * role mentions (`<#papers>`, `<@&123>`) read `#papers`, `@123`, and escaped markdown (paper text, shown
 * as typed) loses its backslashes; the rest of Discord markdown reads fine as text.
 */
function plain(md: string): string {
  return (
    md
      .replace(/(?<!\\)\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '$1 <$2>')
      .replace(/(?<!\\)\*\*(.+?)\*\*/g, '$1')
      .replace(/<#([\w-]+)>/g, '#$1')
      .replace(/<@[&!]?([\w-]+)>/g, '@$1')
      // "<t:N:f> (<t:N:R>)" reads "time (in 3 hours)" on Discord; in UTC text the relative part would repeat it.
      .replace(/<t:(-?\d+):f> \(<t:\1:R>\)/g, '<t:$1:f>')
      .replace(/<t:(-?\d+)(?::[tTdDfFR])?>/g, (_m, s: string) => utc(Number(s)))
      .replace(/\\([\\*_~`|>[\]()#-])/g, '$1')
  );
}

/** Discord's `<t:unix:style>` timestamps, which Discord shows in the reader's zone, as UTC text. */
function utc(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Where a picture is: its saved path, or its name and size when it was not saved. */
type PictureAt = (name: string) => string | undefined;

function picture(f: ReplyFile, at: PictureAt): string {
  if (f.width === undefined || f.height === undefined) return `📎 ${at(f.name) ?? f.name} (${f.data.byteLength} bytes)`;
  return `🖼 ${at(f.name) ?? f.name} (${f.width}×${f.height} PNG)`;
}

function renderEmbed(e: Embed, files: readonly ReplyFile[], at: PictureAt): string {
  const lines: string[] = [];
  if (e.title) lines.push(`■ ${plain(e.title)}${e.url ? `\n  ${e.url}` : ''}`);
  if (e.description) lines.push('', plain(e.description));
  for (const f of e.fields ?? []) lines.push('', `▸ ${plain(f.name)}`, plain(f.value).replace(/^/gm, '  '));
  const image = e.image ? files.find((f) => f.name === e.image) : undefined;
  if (image) lines.push('', `  ${picture(image, at)}`);
  if (e.footer) lines.push('', `  ${plain(e.footer)}`);
  return lines.join('\n').replace(/^\n/, '');
}

function renderButton(b: Button): string {
  if (b.kind === 'link') return `[${b.label} ↗ ${b.url}]`;
  return b.disabled ? `[${b.label}] (disabled)` : `[${b.label}] (/press ${b.customId})`;
}

/**
 * A Reply as terminal text: content, embeds as titled blocks, buttons as labelled actions (an action
 * button with the `/press` line that presses it), pictures as the paths they were saved at (`saved`,
 * by file name). `update`: a button's answer that replaces its message.
 * Control characters never reach the terminal: paper text could carry escape sequences.
 */
export function renderReply(
  reply: Reply & { update?: boolean },
  width = 72,
  saved: ReadonlyMap<string, string> = new Map(),
): string {
  const files = reply.files ?? [];
  const at: PictureAt = (name) => saved.get(name);
  const out: string[] = [];
  if (reply.update) out.push('(the message is replaced by:)');
  if (reply.ephemeral) out.push('(only you can see this)');
  if (reply.content) out.push(plain(reply.content));
  // Embeds of one message share their separators: one rule between two, not two in a row.
  const rule = '─'.repeat(width);
  if (reply.embeds?.length)
    out.push([rule, ...reply.embeds.flatMap((e) => [renderEmbed(e, files, at), rule])].join('\n'));
  const shown = new Set(reply.embeds?.map((e) => e.image));
  for (const f of files) if (!shown.has(f.name)) out.push(picture(f, at));
  for (const row of reply.components ?? []) out.push(row.map(renderButton).join('  '));
  return stripControlChars(out.join('\n'));
}
