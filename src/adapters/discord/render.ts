import {
  ButtonStyle,
  ComponentType,
  MessageFlags,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
} from 'discord.js';
import { LIMITS, truncate, type Button, type Embed, type Reply, type ReplyFile } from '../../core/reply.ts';

/** Mentions a message may ping: none, or only the roles a channel opted into for its digest. */
export interface AllowedMentionsPayload {
  parse: [];
  roles?: string[];
}

/** A Reply as a discord.js message payload (raw API JSON, accepted by send, reply, edit and update alike). */
export interface MessagePayload {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
  allowedMentions: AllowedMentionsPayload;
  /** The reply's pictures, uploaded with the message (multipart); an embed shows one as `attachment://<name>`. */
  files?: FilePayload[];
}

/** One uploaded file, as discord.js takes it; `description` is the attachment's alt text. */
export interface FilePayload {
  attachment: Buffer;
  name: string;
  description: string;
}

/** Discord takes at most 10 files per message. */
const MAX_FILES = 10;

/** The same, answering an interaction: `ephemeral` becomes the Ephemeral flag. */
export type InteractionPayload = MessagePayload & { flags?: MessageFlags.Ephemeral };

const STYLES = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  success: ButtonStyle.Success,
  danger: ButtonStyle.Danger,
} as const;

/**
 * Renders a Reply for a channel message. Paper titles and abstracts are untrusted text, so
 * `allowedMentions` never lets Discord parse @everyone, roles or users out of the text; only the
 * roles passed in `pingRoleIds` (a channel's opt-in digest ping) can ping. Discord's limits are
 * enforced here too, so a reply that slipped past its builder is cut rather than rejected.
 */
export function renderMessage(reply: Reply, opts: { pingRoleIds?: readonly string[] } = {}): MessagePayload {
  const files = (reply.files ?? []).slice(0, MAX_FILES).map(renderFile);
  const names = new Set(files.map((f) => f.name));
  const embeds = fitEmbeds((reply.embeds ?? []).slice(0, LIMITS.embedsPerMessage).map((e) => renderEmbed(e, names)));
  const content = truncate(reply.content ?? '', LIMITS.content);
  const roles = [...new Set(opts.pingRoleIds ?? [])].filter((r) => /^\d{15,21}$/.test(r));
  return {
    // An edit or update without content would keep the old message's text: always send it, empty if need be.
    content: content || (embeds.length === 0 ? '\u200b' : ''),
    embeds,
    components: (reply.components ?? [])
      .filter((row) => row.length > 0)
      .slice(0, LIMITS.rows)
      .map(renderRow),
    allowedMentions: roles.length ? { parse: [], roles } : { parse: [] },
    ...(files.length && { files }),
  };
}

function renderFile(f: ReplyFile): FilePayload {
  return {
    attachment: Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength),
    name: f.name,
    description: truncate(f.description, LIMITS.fileDescription),
  };
}

/** Renders a Reply answering an interaction (never pings anyone). */
export function renderInteraction(reply: Reply): InteractionPayload {
  const payload: InteractionPayload = renderMessage(reply);
  if (reply.ephemeral) payload.flags = MessageFlags.Ephemeral;
  return payload;
}

/** Edits and updates cannot change a message's flags: the same payload without them. */
export function withoutFlags(payload: InteractionPayload): MessagePayload {
  const { flags: _flags, ...rest } = payload;
  return rest;
}

/** An embed; its `image` becomes `attachment://<name>` when the message uploads a file of that name. */
function renderEmbed(e: Embed, files: ReadonlySet<string>): APIEmbed {
  const out: APIEmbed = {};
  if (e.title) out.title = truncate(e.title, LIMITS.title);
  if (e.url) out.url = e.url;
  if (e.description) out.description = truncate(e.description, LIMITS.description);
  if (e.color !== undefined) out.color = e.color;
  if (e.footer) out.footer = { text: truncate(e.footer, LIMITS.footer) };
  if (e.image && files.has(e.image)) out.image = { url: `attachment://${e.image}` };
  const fields = (e.fields ?? []).filter((f) => f.name.trim() && f.value.trim()).slice(0, LIMITS.fields);
  if (fields.length) {
    out.fields = fields.map((f) => ({
      name: truncate(f.name, LIMITS.fieldName),
      value: truncate(f.value, LIMITS.fieldValue),
      inline: f.inline ?? false,
    }));
  }
  return out;
}

function embedSize(e: APIEmbed): number {
  const len = (s?: string) => Array.from(s ?? '').length;
  return (
    len(e.title) +
    len(e.description) +
    len(e.footer?.text) +
    (e.fields ?? []).reduce((n, f) => n + len(f.name) + len(f.value), 0)
  );
}

/** Discord rejects a message whose embeds hold more than 6,000 characters: shorten descriptions from the last embed, then drop embeds. */
function fitEmbeds(embeds: APIEmbed[]): APIEmbed[] {
  let total = embeds.reduce((n, e) => n + embedSize(e), 0);
  for (let i = embeds.length - 1; i >= 0 && total > LIMITS.embedTotal; i--) {
    const e = embeds[i]!;
    if (!e.description) continue;
    const keep = Math.max(0, Array.from(e.description).length - (total - LIMITS.embedTotal));
    const before = embedSize(e);
    if (keep > 1) e.description = truncate(e.description, keep);
    else delete e.description;
    total -= before - embedSize(e);
  }
  while (total > LIMITS.embedTotal && embeds.length > 1) total -= embedSize(embeds.pop()!);
  return embeds;
}

function renderRow(row: Button[]): APIActionRowComponent<APIButtonComponent> {
  return { type: ComponentType.ActionRow, components: row.slice(0, LIMITS.buttonsPerRow).map(renderButton) };
}

function renderButton(b: Button): APIButtonComponent {
  const label = truncate(b.label, LIMITS.buttonLabel);
  if (b.kind === 'link') return { type: ComponentType.Button, style: ButtonStyle.Link, url: b.url, label };
  return {
    type: ComponentType.Button,
    style: STYLES[b.style ?? 'secondary'],
    custom_id: b.customId,
    label,
    disabled: b.disabled ?? false,
  };
}
