import type { Button, Embed, Reply } from '../reply.ts';

/** Markdown links become `label <url>`, bold markers go; the rest of Discord markdown reads fine as text. */
function plain(md: string): string {
  return md.replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '$1 <$2>').replace(/\*\*(.+?)\*\*/g, '$1');
}

function renderEmbed(e: Embed, width: number): string {
  const rule = '─'.repeat(width);
  const lines = [rule];
  if (e.title) lines.push(`■ ${e.title}${e.url ? `\n  ${e.url}` : ''}`);
  if (e.description) lines.push('', plain(e.description));
  for (const f of e.fields ?? []) lines.push('', `▸ ${f.name}`, plain(f.value).replace(/^/gm, '  '));
  if (e.footer) lines.push('', `  ${e.footer}`);
  lines.push(rule);
  return lines.join('\n');
}

function renderButton(b: Button): string {
  return b.kind === 'link' ? `[${b.label} ↗ ${b.url}]` : `[${b.label}]${b.disabled ? ' (disabled)' : ''}`;
}

/** A Reply as terminal text: content, embeds as titled blocks, buttons as labelled actions. */
export function renderReply(reply: Reply, width = 72): string {
  const out: string[] = [];
  if (reply.ephemeral) out.push('(only you can see this)');
  if (reply.content) out.push(plain(reply.content));
  for (const e of reply.embeds ?? []) out.push(renderEmbed(e, width));
  for (const row of reply.components ?? []) out.push(row.map(renderButton).join('  '));
  return out.join('\n');
}
