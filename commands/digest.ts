import {
  optionsOf,
  type Command,
  type CommandDefinition,
  type CommandDeps,
  type CommandInput,
} from '../src/core/command.ts';
import { UserFacingError } from '../src/core/errors.ts';
import type { Reply } from '../src/core/reply.ts';
import { localClock } from '../src/core/delivery/schedule.ts';
import { nextDigest, type NextDigest } from '../src/core/delivery/next.ts';
import { parseChannelRef, parseDigestSettings, WEEKDAY_NAMES } from '../src/core/delivery/settings.ts';
import { channelMention, setupReply, statusReply } from '../src/core/views/digest-config.ts';
import { digestPreviewReply } from '../src/core/views/digest-preview.ts';
import { composeDigest } from '../src/core/digest/compose.ts';
import { TOPIC_SLUGS } from '../src/core/papers/topics.ts';
import {
  disableChannel,
  getChannel,
  guildDigestChannels,
  lastDigest,
  saveChannelSettings,
} from '../db/queries/channels.ts';
import { isDigestPlanned } from '../db/queries/deliveries.ts';
import type { Channel } from '../db/schema.ts';
import { loadChannelDigest } from '../src/services/outbox/channel-digest.ts';
import { withDigestPicture } from '../src/services/outbox/header-picture.ts';
import { postDigestNow } from './digest/now.ts';

const channelOption = (required: boolean) => ({
  name: 'channel',
  description: required ? 'The channel that gets the digest' : 'Which digest channel (default: this one)',
  type: 'channel' as const,
  required,
});

const definition = {
  name: 'digest',
  description: 'Daily or weekly digests of new GRPO-family papers in a channel',
  // Manage Guild: Discord shows /digest to managers by default (admins may widen that in Integrations);
  // setup, now and off check `canManage` again in execute, preview and status are harmless.
  defaultMemberPermissions: '32',
  subcommands: [
    {
      name: 'setup',
      description: 'Post a digest in a channel at a local time (redo it to change settings)',
      options: [
        channelOption(true),
        {
          name: 'time',
          description: 'Local post time, 24-hour HH:MM, e.g. 09:00',
          type: 'string',
          required: true,
          maxLength: 10,
        },
        {
          name: 'timezone',
          description: 'IANA time zone, e.g. Europe/Berlin, America/New_York, UTC',
          type: 'string',
          required: true,
          autocomplete: true,
          maxLength: 64,
        },
        {
          name: 'cadence',
          description: 'daily (default) or weekly',
          type: 'string',
          choices: [
            { name: 'daily', value: 'daily' },
            { name: 'weekly', value: 'weekly' },
          ],
        },
        {
          name: 'weekday',
          description: 'Day of weekly digests (default Monday)',
          type: 'integer',
          choices: WEEKDAY_NAMES.map((name, value) => ({ name, value })),
        },
        {
          name: 'topics',
          description: 'Comma-separated topic slugs (default: all); see /topics',
          type: 'string',
          autocomplete: true,
          maxLength: 300,
        },
        {
          name: 'language',
          description: 'Summary language: en (default) or zh',
          type: 'string',
          choices: [
            { name: 'English', value: 'en' },
            { name: '中文', value: 'zh' },
          ],
        },
        {
          name: 'max',
          description: 'At most this many papers per digest (1-25, default 10)',
          type: 'integer',
          minValue: 1,
          maxValue: 25,
        },
        {
          name: 'min_score',
          description: 'Only papers the classifier scores at least this (0-1, default 0)',
          type: 'number',
          minValue: 0,
          maxValue: 1,
        },
        {
          name: 'quiet_day',
          description: 'Without new papers: post nothing (default) or a one-line notice',
          type: 'string',
          choices: [
            { name: 'post nothing', value: 'nothing' },
            { name: 'one-line notice', value: 'notice' },
          ],
        },
        { name: 'ping_role', description: 'A role to mention with each digest (default: nobody)', type: 'role' },
        {
          name: 'threads',
          description: 'One message per paper, each with its own discussion thread (default: no)',
          type: 'boolean',
        },
        {
          name: 'header_image',
          description: "Weekly digests: a picture of the week's papers by family on top (default: no)",
          type: 'boolean',
        },
      ],
    },
    {
      name: 'preview',
      description: 'What the next digest would contain, shown only to you',
      options: [channelOption(false)],
    },
    { name: 'now', description: "Post the digest now (counts as today's digest)", options: [channelOption(false)] },
    { name: 'off', description: 'Stop the digest in a channel', options: [channelOption(false)] },
    {
      name: 'status',
      description: "A channel's digest settings, last and next digest, and delivery problems",
      options: [channelOption(false)],
    },
  ],
} as const satisfies CommandDefinition;

/** `/digest setup|preview|now|off|status`: a channel's daily or weekly digest of new GRPO-family papers. */
export const digest: Command = {
  definition,
  slow: (subcommand) => subcommand === 'now', // posts several messages; the others answer at once, privately
  async execute(input, deps) {
    if (!input.guildId)
      throw new UserFacingError('Digests belong to server channels: use /digest in a server, not in direct messages.');
    switch (input.subcommand) {
      case 'setup':
        return setup(input, deps);
      case 'preview':
        return preview(input, deps);
      case 'now':
        return now(input, deps);
      case 'off':
        return off(input, deps);
      case 'status':
        return status(input, deps);
      default:
        throw new UserFacingError('Use /digest setup, preview, now, off or status.');
    }
  },
  async autocomplete(_input, focused) {
    if (focused.name === 'timezone') return zoneChoices(focused.value);
    if (focused.name === 'topics') return topicChoices(focused.value);
    return [];
  },
};

function requireManage(input: CommandInput): void {
  if (!input.canManage)
    throw new UserFacingError(
      'Only members with Manage Server (or the moderator role) can change digests. /digest status and /digest preview are open to everyone.',
    );
}

/** The channel named by the option, else the one the command was used in. */
function targetChannel(input: CommandInput, channel: string | undefined): string {
  if (channel !== undefined) return parseChannelRef(channel);
  if (!input.channelId) throw new UserFacingError('Name the channel: channel:#papers.');
  return input.channelId;
}

/** The channel's digest row, if it belongs to this server. */
async function configured(input: CommandInput, deps: CommandDeps, channelId: string): Promise<Channel> {
  const row = await getChannel(deps.db, channelId);
  if (!row || row.guildId !== input.guildId) {
    const others = input.guildId ? await guildDigestChannels(deps.db, input.guildId) : [];
    const elsewhere = others.length
      ? ` This server has one in ${others.slice(0, 5).map(channelMention).join(', ')}: add channel:${channelMention(others[0]!)} to the command.`
      : '';
    throw new UserFacingError(
      `No digest is set up for ${channelMention(channelId)}.${elsewhere} Set one up here with /digest setup channel:${channelMention(channelId)} time:09:00 timezone:UTC.`,
    );
  }
  return row;
}

async function upcoming(deps: CommandDeps, row: Channel): Promise<NextDigest> {
  const now = deps.now();
  const today = localClock(now, row.timezone).date;
  return nextDigest(row, now, await isDigestPlanned(deps.db, row.channelId, today));
}

async function setup(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  requireManage(input);
  const guildId = input.guildId!; // checked in execute
  const options = optionsOf(definition, input, 'setup');
  const channelId = targetChannel(input, options.channel);
  const settings = parseDigestSettings(options);
  const existing = await getChannel(deps.db, channelId);
  if (existing && existing.guildId !== guildId) throw new UserFacingError('That channel belongs to another server.');
  const row = await saveChannelSettings(deps.db, { channelId, guildId, userId: input.user.id }, settings, deps.now());
  return setupReply(row, await upcoming(deps, row), Boolean(deps.nextRuns), pingProblem(input, row.pingRoleId));
}

/**
 * Why a digest's role ping would not notify anyone, if it would not: Discord delivers a role mention
 * only when the role is mentionable or the sender may mention all roles. Undefined when it will, or
 * when the platform cannot tell (the console).
 */
export function pingProblem(input: CommandInput, roleId: string | null): string | undefined {
  const role = roleId ? input.resolved?.roles?.[roleId] : undefined;
  if (!role || role.mentionable || input.resolved?.botMentionsAllRoles !== false) return undefined;
  return (
    `The digest will mention @${role.name}, but Discord will not notify its members: the role is not mentionable and the bot lacks "Mention @everyone, @here and All Roles". ` +
    `Turn on "Allow anyone to @mention this role" (Server Settings → Roles → ${role.name}), or give the bot's role that permission; then nothing else needs to change.`
  );
}

async function status(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  const row = await configured(input, deps, targetChannel(input, optionsOf(definition, input, 'status').channel));
  const next = row.enabled && !row.deliveryError ? await upcoming(deps, row) : undefined;
  return statusReply(row, next, await lastDigest(deps.db, row.channelId), Boolean(deps.nextRuns));
}

async function off(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  requireManage(input);
  const row = await configured(input, deps, targetChannel(input, optionsOf(definition, input, 'off').channel));
  if (!row.enabled)
    return { content: `Digests in ${channelMention(row.channelId)} were already off.`, ephemeral: true };
  await disableChannel(deps.db, row.channelId, deps.now());
  return {
    content: `Digests in ${channelMention(row.channelId)} are off. /digest setup turns them back on (the next digest then starts after the last one posted).`,
    ephemeral: true,
  };
}

async function preview(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  const row = await configured(input, deps, targetChannel(input, optionsOf(definition, input, 'preview').channel));
  // With nothing new (always so on a fresh install: the seeds are not news), a labelled sample instead of nothing.
  const loaded = await loadChannelDigest(deps.db, row.channelId, { now: deps.now(), sample: true });
  if (!loaded) throw new UserFacingError(`No digest is set up for ${channelMention(row.channelId)}.`);
  const messages = composeDigest(loaded.input);
  const reply = digestPreviewReply(row, loaded.window, messages, loaded.sample);
  // A weekly digest's header picture, drawn as the post would draw it.
  const picture = messages[0]?.picture;
  return picture ? withDigestPicture(reply, picture, deps.log) : reply;
}

async function now(input: CommandInput, deps: CommandDeps): Promise<Reply> {
  requireManage(input);
  const row = await configured(input, deps, targetChannel(input, optionsOf(definition, input, 'now').channel));
  if (!row.enabled)
    throw new UserFacingError(`Digests in ${channelMention(row.channelId)} are off. /digest setup turns them back on.`);
  if (row.deliveryError)
    throw new UserFacingError(
      `The bot cannot post in ${channelMention(row.channelId)}: ${row.deliveryError}. Fix its permissions there, then run /digest setup again.`,
    );
  if (!deps.poster) {
    return {
      content:
        'Posting needs the bot running on Discord (start it with DISCORD_TOKEN set); nothing was posted. Here, /digest preview shows what the digest would contain.',
      ephemeral: true,
    };
  }
  return postDigestNow(deps, row, deps.poster);
}

const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone')];

/** Time zones containing what was typed (`berlin`, `new_york`, `shang`), UTC first. */
function zoneChoices(typed: string) {
  const q = typed.trim().toLowerCase().replace(/\s+/g, '_');
  return ZONES.filter((z) => z.toLowerCase().includes(q))
    .slice(0, 25)
    .map((z) => ({ name: z, value: z }));
}

/** Completes the last slug of a comma list: `algorithm, mat` -> `algorithm,math-code`. */
function topicChoices(typed: string) {
  const parts = typed.split(',').map((p) => p.trim().toLowerCase());
  const last = parts.pop() ?? '';
  const chosen = parts.filter(Boolean);
  const prefix = chosen.length ? `${chosen.join(',')},` : '';
  const options = ['all', ...TOPIC_SLUGS].filter(
    (t) => t.includes(last) && !chosen.includes(t) && (t !== 'all' || chosen.length === 0),
  );
  return options
    .slice(0, 25)
    .map((t) => ({ name: `${prefix}${t}`.slice(0, 100), value: `${prefix}${t}`.slice(0, 100) }));
}
