import { optionsOf, type Command, type CommandDefinition, type CommandInput } from '../src/core/command.ts';
import { parseChannelRef } from '../src/core/delivery/settings.ts';
import { UserFacingError } from '../src/core/errors.ts';
import { parseSubscriptionLabel, subscriptionLabel } from '../src/core/subscriptions/values.ts';
import { subscriptionsReply, unsubscribedReply } from '../src/core/subscriptions/views.ts';
import {
  getSubscriber,
  listSubscriptions,
  removeSubscription,
  saveSubscriber,
  type DeliveryMode,
} from '../db/queries/subscriptions.ts';
import { guildNotifyChannel } from '../db/queries/guilds.ts';
import type { UserSubscription } from '../db/schema.ts';
import { currentSettings, deliverySettings } from './subscribe.ts';

const MODES = [
  { name: 'DM (default)', value: 'dm' },
  { name: 'mention in a channel', value: 'channel' },
  { name: 'off', value: 'off' },
] as const;

const unsubscribeDefinition = {
  name: 'unsubscribe',
  description: 'Stop following a topic, keyword, author or family',
  options: [
    {
      name: 'subscription',
      description: 'One of yours, e.g. keyword:clip-higher',
      type: 'string',
      required: true,
      autocomplete: true,
      maxLength: 200,
    },
  ],
} as const satisfies CommandDefinition;

const subscriptionsDefinition = {
  name: 'subscriptions',
  description: 'What you follow, and how new papers reach you (DM, channel mention, off; daily cap)',
  options: [
    { name: 'mode', description: 'dm (default), channel (a mention) or off', type: 'string', choices: MODES },
    {
      name: 'channel',
      description: 'The channel for mentions (implies mode channel); also the fallback when DMs are closed',
      type: 'channel',
    },
    {
      name: 'daily_cap',
      description: 'At most this many papers a day on their own (1-50, default 10); the rest in one message',
      type: 'integer',
      minValue: 1,
      maxValue: 50,
    },
  ],
} as const satisfies CommandDefinition;

/** `/unsubscribe subscription:<kind:value>`: stop following one thing (autocompleted from the user's own). */
export const unsubscribe: Command = {
  definition: unsubscribeDefinition,
  async execute(input, deps) {
    const typed = optionsOf(unsubscribeDefinition, input).subscription;
    const mine = await listSubscriptions(deps.db, input.user.id);
    const target = findOwn(mine, typed);
    if (!target) {
      const yours = mine.length
        ? ` You follow: ${mine.map((s) => `\`${subscriptionLabel(s)}\``).join(', ')}.`.slice(0, 1500)
        : ' You follow nothing.';
      throw new UserFacingError(`You do not follow \`${typed.replace(/`/g, "'")}\`.${yours}`);
    }
    await removeSubscription(deps.db, input.user.id, target.kind, target.value);
    return unsubscribedReply(target, mine.length - 1);
  },
  async autocomplete(input, focused, deps) {
    if (focused.name !== 'subscription') return [];
    const q = focused.value.trim().toLowerCase();
    return (await listSubscriptions(deps.db, input.user.id))
      .map(subscriptionLabel)
      .filter((l) => l.toLowerCase().includes(q))
      .slice(0, 25)
      .map((l) => ({ name: l.slice(0, 100), value: l.slice(0, 100) }));
  },
};

/** `keyword:clip-higher` (any case), or a bare value when only one subscription has it. */
function findOwn(mine: UserSubscription[], typed: string): UserSubscription | undefined {
  const parsed = parseSubscriptionLabel(typed);
  const same = (a: string, b: string) => a.toLowerCase() === b.trim().toLowerCase();
  if (parsed) return mine.find((s) => s.kind === parsed.kind && same(s.value, parsed.value));
  const byValue = mine.filter((s) => same(s.value, typed));
  return byValue.length === 1 ? byValue[0] : undefined;
}

/** `/subscriptions [mode] [channel] [daily_cap]`: what the user follows, and how it reaches them. */
export const subscriptions: Command = {
  definition: subscriptionsDefinition,
  async execute(input, deps) {
    const set = settingsFrom(input);
    if (set.channelId) checkPostable(input, set.channelId);
    if (Object.keys(set).length > 0) {
      if (set.mode === 'channel') {
        const existing = await getSubscriber(deps.db, input.user.id);
        const channelId =
          set.channelId ??
          existing?.channelId ??
          (await guildNotifyChannel(deps.db, input.guildId ?? existing?.guildId));
        if (!channelId)
          throw new UserFacingError('Channel delivery needs a channel: /subscriptions mode:channel channel:#papers.');
      }
      const row = await saveSubscriber(deps.db, input.user.id, input.guildId, set, deps.now());
      return subscriptionsReply(
        await listSubscriptions(deps.db, input.user.id),
        await deliverySettings(deps, row, input.guildId),
        true,
      );
    }
    return subscriptionsReply(
      await listSubscriptions(deps.db, input.user.id),
      await currentSettings(deps, input),
      false,
    );
  },
};

function settingsFrom(input: CommandInput): { mode?: DeliveryMode; channelId?: string; dailyCap?: number } {
  const { mode, channel, daily_cap: cap } = optionsOf(subscriptionsDefinition, input);
  const channelId = channel === undefined ? undefined : parseChannelRef(channel);
  const chosen = mode === undefined ? (channelId ? 'channel' : undefined) : (mode as DeliveryMode);
  return {
    ...(chosen && { mode: chosen }),
    ...(channelId && { channelId }),
    ...(cap !== undefined && { dailyCap: cap }),
  };
}

/**
 * A channel a member names for their mentions must be one they may post in and the bot may post in
 * (checked here, server side, from what the platform resolved, never from what the member says): else
 * any member could have the bot post into a read-only or hidden channel. The console resolves nothing
 * and is the operator's own.
 */
function checkPostable(input: CommandInput, channelId: string): void {
  if (!input.resolved) return;
  const rights = input.resolved.channels?.[channelId];
  const where = `<#${channelId}>`;
  if (!rights) throw new UserFacingError(`I could not check ${where}: pick the channel from the list.`);
  if (!rights.memberCanPost)
    throw new UserFacingError(
      `You cannot post in ${where}, so your mentions cannot go there: pick a channel you can post in.`,
    );
  if (rights.botCanPost !== true)
    throw new UserFacingError(
      `I am not allowed to post in ${where} (I need View Channel, Send Messages and Embed Links there): pick another channel or ask a moderator.`,
    );
}
