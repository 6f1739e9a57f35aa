/** The answers of /subscribe, /unsubscribe and /subscriptions (all ephemeral). Pure. */
import { channelMention } from '../views/digest-config.ts';
import { LIMITS, neutralizeMentions, truncate, type Reply } from '../reply.ts';
import { subscriptionLabel } from './values.ts';

export interface DeliverySettings {
  mode: string;
  /** The channel notifications go to in channel mode (and DM failures fall back to): the user's, else the server's. */
  channelId: string | null;
  dailyCap: number;
}

export interface ListedSubscription {
  kind: string;
  value: string;
  exclude: string | null;
}

const code = (s: string) => `\`${neutralizeMentions(s).replace(/`/g, "'")}\``;

/** "by DM, at most 10 a day" and the like. */
export function deliveryText(s: DeliverySettings): string {
  if (s.mode === 'off')
    return 'Delivery is **off**: nothing is sent until you turn it back on with /subscriptions mode:dm or mode:channel.';
  const cap = `at most ${s.dailyCap} paper${s.dailyCap === 1 ? '' : 's'} a day on their own, any more in one summary message`;
  if (s.mode === 'channel') {
    return s.channelId
      ? `New matching papers reach you with a mention in ${channelMention(s.channelId)}, ${cap}.`
      : 'Channel delivery has no channel yet: set one with /subscriptions channel:#papers, or switch to mode:dm.';
  }
  const fallback = s.channelId ? `; if your DMs are closed, a mention in ${channelMention(s.channelId)} instead` : '';
  return `New matching papers reach you by DM, ${cap}${fallback}.`;
}

const describe = (s: ListedSubscription) =>
  `${code(subscriptionLabel(s))}${s.exclude ? ` (except ${code(s.exclude)})` : ''}`;

/** `before`: the subscription as it was, when the user already followed it. */
export function subscribedReply(
  s: ListedSubscription,
  before: ListedSubscription | undefined,
  settings: DeliverySettings,
): Reply {
  const head = !before
    ? `Subscribed to ${describe(s)}. Only GRPO-family papers announced from now on count; each reaches you once.`
    : `You already follow ${code(subscriptionLabel(s))}; ${exclusionChange(before.exclude, s.exclude)}.`;
  return {
    content: truncate(
      `${head}\n${deliveryText(settings)}\n/subscriptions lists what you follow; /unsubscribe stops one.`,
      LIMITS.content,
    ),
    ephemeral: true,
  };
}

function exclusionChange(before: string | null, after: string | null): string {
  if ((before ?? '') === (after ?? '')) return after ? `nothing changed (except ${code(after)})` : 'nothing changed';
  if (!after) return `its exclusions (${code(before!)}) are removed`;
  return `its exclusions are now ${code(after)}`;
}

export function unsubscribedReply(s: ListedSubscription, left: number): Reply {
  return {
    content: `You no longer follow ${code(subscriptionLabel(s))}. ${left === 0 ? 'You follow nothing now.' : `You still follow ${left} other${left === 1 ? '' : 's'}: /subscriptions lists them.`}`,
    ephemeral: true,
  };
}

export function subscriptionsReply(
  subs: readonly ListedSubscription[],
  settings: DeliverySettings,
  changed: boolean,
): Reply {
  const list = subs.length
    ? subs.map((s) => `• ${describe(s)}`).join('\n')
    : 'You follow nothing yet. Try /subscribe topic:exploration-entropy, /subscribe keyword:clip-higher, /subscribe author:<name> or /subscribe family:DAPO.';
  return {
    ephemeral: true,
    ...(changed && { content: 'Delivery settings saved.' }),
    embeds: [
      {
        title: `Your subscriptions (${subs.length})`,
        description: truncate(list, LIMITS.description),
        fields: [{ name: 'Delivery', value: truncate(deliveryText(settings), LIMITS.fieldValue) }],
        footer: 'Change delivery: /subscriptions mode:dm|channel|off channel:#papers daily_cap:10',
      },
    ],
  };
}
