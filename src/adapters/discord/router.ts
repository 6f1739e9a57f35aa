import {
  ApplicationCommandOptionType,
  PermissionFlagsBits,
  type AutocompleteInteraction,
  type BaseInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
  type MessageComponentInteraction,
  type RepliableInteraction,
} from 'discord.js';
import {
  isSlow,
  type Command,
  type CommandDeps,
  type CommandInput,
  type ComponentInput,
  type OptionValue,
} from '../../core/command.ts';
import { GENERIC_ERROR, runCommand, runComponent } from '../../core/dispatch.ts';
import { errorReply, type Reply } from '../../core/reply.ts';
import { findCommand, findComponentOwner } from '../../../commands/index.ts';
import { guildModeratorRole } from '../../../db/queries/guilds.ts';
import { answerUnclaimed, claimBy, type Claims } from './claim.ts';
import { renderInteraction, withoutFlags } from './render.ts';

export interface RouterOptions {
  deps: CommandDeps;
  /** Who answers each interaction when several processes run on one token (claim.ts). */
  claims: Claims;
  /**
   * How long after its arrival an interaction this process could not claim is answered with the
   * database message (default 2 s: a process that did claim it answers or defers within 1 s, and
   * Discord allows 3 s for the first response).
   */
  claimDeadlineMs?: number;
  /** Called with each interaction another process claimed (the latency watcher stops waiting for it). */
  onDeclined?: (interactionId: string) => void;
  /** The commands to answer; defaults to the registered list in commands/index.ts. */
  commands?: readonly Command[];
  /** An answer not ready after this long is deferred (Discord allows 3 s for the first response). */
  deferAfterMs?: number;
}

export interface Router {
  /** Answers one interaction. Never rejects: failures are logged and the user gets a generic message. */
  handle(interaction: Interaction): Promise<void>;
  /** Resolves when every interaction being answered has been answered (graceful shutdown). */
  drain(): Promise<void>;
}

const NO_LONGER = 'That command or button no longer exists here. Run /help to see the current commands.';

/** Custom ids are `<command>:<arg>...`; the owner is the command of that name or one declaring the prefix. */
function lookups(commands?: readonly Command[]) {
  if (!commands) return { find: findCommand, owner: findComponentOwner };
  return {
    find: (name: string) => commands.find((c) => c.definition.name === name),
    owner: (id: string) => {
      const prefix = id.split(':', 1)[0] ?? '';
      return commands.find((c) => c.definition.name === prefix || c.componentPrefixes?.includes(prefix));
    },
  };
}

/** Resolves true when `p` settles within `ms`, false otherwise; the timer never outlives the promise. */
function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    p.then(done, done);
  });
}

/** The options the user gave, flattened out of a subcommand (user, channel and role options arrive as ids). */
export function interactionOptions(data: readonly CommandInteractionOption[]): {
  subcommand?: string;
  options: Record<string, OptionValue>;
  focused?: { name: string; value: string };
} {
  let list = data;
  let subcommand: string | undefined;
  const group = list[0]?.type === ApplicationCommandOptionType.SubcommandGroup ? list[0] : undefined;
  if (group) list = group.options ?? [];
  const sub = list[0]?.type === ApplicationCommandOptionType.Subcommand ? list[0] : undefined;
  if (sub) {
    subcommand = sub.name;
    list = sub.options ?? [];
  }
  const options: Record<string, OptionValue> = {};
  let focused: { name: string; value: string } | undefined;
  for (const o of list) {
    if (o.focused) focused = { name: o.name, value: String(o.value ?? '') };
    if (o.value !== undefined && o.value !== null) options[o.name] = o.value;
  }
  return { subcommand, options, focused };
}

type Permissions = { has(flag: bigint): boolean };

/** What a member needs to post in a channel; the bot also embeds (notices and digests are embeds). */
const MEMBER_POSTS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages];
const BOT_POSTS = [...MEMBER_POSTS, PermissionFlagsBits.EmbedLinks];
const THREAD_POSTS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessagesInThreads];

/**
 * Role options' mentionability and the bot's Mention All Roles permission, for commands that ping
 * (`/digest setup ping_role`); channel options' posting rights for the member (the permissions
 * Discord resolved for them in that channel) and for the bot (Discord's app permissions there, else
 * computed from the cached server for the bot's own member), for commands that post there.
 */
export function resolvedContext(
  data: readonly CommandInteractionOption[],
  appPermissions: Permissions | null,
  me?: unknown,
): CommandInput['resolved'] {
  const roles: Record<string, { name: string; mentionable: boolean }> = {};
  const channels: NonNullable<NonNullable<CommandInput['resolved']>['channels']> = {};
  const walk = (list: readonly CommandInteractionOption[]) => {
    for (const o of list) {
      if (o.role) roles[o.role.id] = { name: o.role.name, mentionable: Boolean(o.role.mentionable) };
      if (o.channel) channels[o.channel.id] = channelRights(o.channel, me);
      if (o.options) walk(o.options);
    }
  };
  walk(data);
  return {
    roles,
    ...(Object.keys(channels).length > 0 && { channels }),
    ...(appPermissions && { botMentionsAllRoles: appPermissions.has(PermissionFlagsBits.MentionEveryone) }),
  };
}

function channelRights(
  channel: NonNullable<CommandInteractionOption['channel']>,
  me: unknown,
): { memberCanPost: boolean; botCanPost: boolean | null } {
  const c = channel as {
    permissions?: Permissions | string | null;
    appPermissions?: Permissions | null;
    isThread?: () => boolean;
    permissionsFor?: (who: never) => Permissions | null;
  };
  const needs = c.isThread?.() ? THREAD_POSTS : undefined;
  const all = (p: Permissions | null | undefined, flags: bigint[]) => (p ? flags.every((f) => p.has(f)) : null);
  // An uncached channel arrives as raw API data, its permissions a bitfield string.
  const member = typeof c.permissions === 'string' ? bits(c.permissions) : c.permissions;
  const bot = c.appPermissions ?? (me && c.permissionsFor ? c.permissionsFor(me as never) : null);
  return {
    memberCanPost: all(member, needs ?? MEMBER_POSTS) ?? false,
    botCanPost: all(bot, needs ? [...THREAD_POSTS, PermissionFlagsBits.EmbedLinks] : BOT_POSTS),
  };
}

function bits(s: string): Permissions {
  let n: bigint;
  try {
    n = BigInt(s);
  } catch {
    n = 0n;
  }
  return { has: (f) => (n & f) === f };
}

/**
 * Routes interactions to the platform-neutral commands. canManage is decided here, server side:
 * the member's Manage Server permission (Administrator implies it), or the server's moderator
 * role from the `guilds` table. A command marked `slow`, or any answer not ready within
 * `deferAfterMs`, is deferred (publicly: an ephemeral answer then replaces the placeholder with an
 * ephemeral follow-up) and edited when ready.
 */
export function createRouter(opts: RouterOptions): Router {
  const { deps } = opts;
  const { find, owner } = lookups(opts.commands);
  const deferAfterMs = opts.deferAfterMs ?? 1000;
  const claimDeadlineMs = opts.claimDeadlineMs ?? 2000;
  const inFlight = new Set<Promise<void>>();

  async function canManage(interaction: BaseInteraction): Promise<boolean> {
    if (!interaction.inGuild()) return false;
    if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return true;
    try {
      const roleId = await guildModeratorRole(deps.db, interaction.guildId);
      if (!roleId) return false;
      const member = interaction.member;
      return Array.isArray(member.roles) ? member.roles.includes(roleId) : member.roles.cache.has(roleId);
    } catch (err) {
      deps.log.warn(
        { err, guild: interaction.guildId },
        'could not read the moderator role; treating the member as not a moderator',
      );
      return false;
    }
  }

  const userOf = (i: BaseInteraction) => ({ id: i.user.id, name: i.user.globalName ?? i.user.username });

  async function answerChatInput(i: ChatInputCommandInteraction): Promise<void> {
    const command = find(i.commandName);
    if (!command) return void (await i.reply(renderInteraction(errorReply(NO_LONGER))));
    const { subcommand, options } = interactionOptions(i.options.data);
    const pending = (async (): Promise<Reply> => {
      const input: CommandInput = {
        user: userOf(i),
        guildId: i.guildId ?? undefined,
        channelId: i.channelId,
        canManage: await canManage(i),
        subcommand,
        options,
        resolved: resolvedContext(i.options.data, i.appPermissions, i.guild?.members.me),
      };
      return runCommand(command, input, deps);
    })();
    let deferred = false;
    if (isSlow(command, subcommand) || !(await settlesWithin(pending, deferAfterMs))) {
      await i.deferReply();
      deferred = true;
    }
    const payload = renderInteraction(await pending);
    if (!deferred) await i.reply(payload);
    else if (payload.flags) {
      // The placeholder is public; an ephemeral answer (an error, a personal list) must not be.
      await i.deleteReply();
      await i.followUp(payload);
    } else await i.editReply(withoutFlags(payload));
  }

  async function answerAutocomplete(i: AutocompleteInteraction): Promise<void> {
    const command = find(i.commandName);
    const { subcommand, options, focused } = interactionOptions(i.options.data);
    if (!command?.autocomplete || !focused) return void (await i.respond([]));
    let choices: { name: string; value: string }[] = [];
    try {
      const input: CommandInput = {
        user: userOf(i),
        guildId: i.guildId ?? undefined,
        channelId: i.channelId,
        canManage: await canManage(i),
        subcommand,
        options,
      };
      choices = await command.autocomplete(input, focused, deps);
    } catch (err) {
      deps.log.error({ err, command: i.commandName, option: focused.name }, 'autocomplete failed');
    }
    await i.respond(
      choices
        .filter((c) => c.name.trim() && c.value)
        .slice(0, 25)
        .map((c) => ({
          name: Array.from(c.name).slice(0, 100).join(''),
          value: Array.from(c.value).slice(0, 100).join(''),
        })),
    );
  }

  async function answerComponent(i: MessageComponentInteraction): Promise<void> {
    const command = owner(i.customId);
    if (!command) return void (await i.reply(renderInteraction(errorReply(NO_LONGER))));
    const pending = (async () => {
      const input: ComponentInput = {
        user: userOf(i),
        guildId: i.guildId ?? undefined,
        channelId: i.channelId,
        canManage: await canManage(i),
        customId: i.customId,
        values: i.isAnySelectMenu() ? [...i.values] : undefined,
      };
      return runComponent(command, input, deps);
    })();
    let deferred = false;
    if (isSlow(command) || !(await settlesWithin(pending, deferAfterMs))) {
      await i.deferUpdate();
      deferred = true;
    }
    const result = await pending;
    const payload = renderInteraction(result);
    if (result.update) await (deferred ? i.editReply(withoutFlags(payload)) : i.update(withoutFlags(payload)));
    else await (deferred ? i.followUp(payload) : i.reply(payload));
  }

  async function route(i: Interaction): Promise<void> {
    if (i.isChatInputCommand()) return answerChatInput(i);
    if (i.isAutocomplete()) return answerAutocomplete(i);
    if (i.isButton() || i.isAnySelectMenu()) return answerComponent(i);
    deps.log.debug({ type: i.type }, 'interaction type not handled');
  }

  /** Only the process whose claim made the row answers; the others drop the interaction silently. */
  async function claimThenRoute(i: Interaction, deadline: number): Promise<void> {
    const verdict = await claimBy(opts.claims, i.id, deadline);
    if (verdict === 'mine') return route(i);
    if (verdict !== 'theirs') return answerUnclaimed(i, verdict, deadline, deps.log);
    deps.log.debug({ interaction: i.id }, 'interaction claimed by another process');
    opts.onDeclined?.(i.id);
  }

  async function fail(i: Interaction, err: unknown): Promise<void> {
    const context = {
      interaction: i.id,
      type: i.type,
      guild: i.guildId,
      user: i.user.id,
      command: i.isCommand() || i.isAutocomplete() ? i.commandName : undefined,
      customId: i.isMessageComponent() ? i.customId : undefined,
    };
    deps.log.error({ err, ...context }, 'interaction failed');
    try {
      if (i.isAutocomplete()) {
        if (!i.responded) await i.respond([]);
        return;
      }
      if (!i.isRepliable()) return;
      const payload = renderInteraction(errorReply(GENERIC_ERROR));
      const r = i as RepliableInteraction;
      await (r.replied || r.deferred ? r.followUp(payload) : r.reply(payload));
    } catch (err2) {
      deps.log.warn({ err: err2, ...context }, 'could not tell the user about the failure');
    }
  }

  return {
    handle(interaction) {
      const p: Promise<void> = claimThenRoute(interaction, performance.now() + claimDeadlineMs)
        .catch((err: unknown) => fail(interaction, err))
        .catch(() => {})
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      return p;
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
