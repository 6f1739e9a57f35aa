import {
  optionsOf,
  type Command,
  type CommandDefinition,
  type CommandDeps,
  type CommandInput,
} from '../src/core/command.ts';
import { UserFacingError } from '../src/core/errors.ts';
import { TOPIC_SLUGS } from '../src/core/papers/topics.ts';
import { excludeTerms, SUBSCRIPTION_KINDS } from '../src/core/subscriptions/match.ts';
import { FAMILY_NAMES, listChoices, MAX_SUBSCRIPTIONS, normalizeValue } from '../src/core/subscriptions/values.ts';
import { subscribedReply, type DeliverySettings } from '../src/core/subscriptions/views.ts';
import {
  addSubscription,
  DEFAULT_SUBSCRIBER,
  getSubscriber,
  listSubscriptions,
  saveSubscriber,
} from '../db/queries/subscriptions.ts';
import { guildNotifyChannel } from '../db/queries/guilds.ts';
import type { Subscriber } from '../db/schema.ts';

const definition = {
  name: 'subscribe',
  description: 'Get new GRPO-family papers on a topic, keyword, author or family by DM or mention',
  options: [
    {
      name: 'topic',
      description: 'A topic from the taxonomy (see /topics)',
      type: 'string',
      autocomplete: true,
      maxLength: 64,
    },
    {
      name: 'keyword',
      description: 'A word or phrase in the title or abstract, e.g. clip-higher',
      type: 'string',
      maxLength: 100,
    },
    {
      name: 'exclude',
      description: 'With keyword: comma-separated words that suppress a match, e.g. diffusion, image',
      type: 'string',
      maxLength: 200,
    },
    {
      name: 'author',
      description: "An author's name (accents, case and initials are forgiven)",
      type: 'string',
      maxLength: 100,
    },
    {
      name: 'family',
      description: 'A GRPO variant, e.g. DAPO, GSPO, Dr. GRPO',
      type: 'string',
      autocomplete: true,
      maxLength: 64,
    },
  ],
} as const satisfies CommandDefinition;

/**
 * `/subscribe topic|keyword|author|family`: follow one thing per call. New GRPO-family papers
 * that match reach the user once each (src/services/outbox/notices.ts). Answers only the caller.
 */
export const subscribe: Command = {
  definition,
  async execute(input, deps) {
    const o = optionsOf(definition, input);
    const kinds = SUBSCRIPTION_KINDS.filter((k) => o[k] !== undefined);
    if (kinds.length !== 1) {
      throw new UserFacingError(
        `Give exactly one of topic, keyword, author or family${kinds.length ? ` (you gave ${kinds.join(' and ')})` : ''}, e.g. /subscribe keyword:clip-higher. Run /subscribe again for each more.`,
      );
    }
    const kind = kinds[0]!;
    if (o.exclude !== undefined && kind !== 'keyword')
      throw new UserFacingError('exclude only works with keyword, e.g. /subscribe keyword:grpo exclude:diffusion.');
    const value = normalizeValue(kind, o[kind]!);
    const exclude = excludeTerms(o.exclude === undefined ? null : o.exclude.toLowerCase()).join(', ') || null;

    const existing = await listSubscriptions(deps.db, input.user.id);
    if (existing.length >= MAX_SUBSCRIPTIONS && !existing.some((s) => s.kind === kind && s.value === value)) {
      throw new UserFacingError(`You follow ${existing.length} things, the most there can be. /unsubscribe one first.`);
    }
    const now = deps.now();
    const { row, created } = await addSubscription(
      deps.db,
      { userId: input.user.id, guildId: input.guildId, kind, value, exclude },
      now,
    );
    const subscriber = await saveSubscriber(deps.db, input.user.id, input.guildId, {}, now);
    const before = created ? undefined : existing.find((s) => s.kind === kind && s.value === value);
    return subscribedReply(row, before, await deliverySettings(deps, subscriber));
  },
  async autocomplete(_input, focused) {
    if (focused.name === 'topic') return listChoices(TOPIC_SLUGS, focused.value);
    if (focused.name === 'family') return listChoices(FAMILY_NAMES, focused.value);
    return [];
  },
};

/** A user's delivery as they would experience it: the channel is theirs, else their server's notification channel. */
export async function deliverySettings(
  deps: CommandDeps,
  s: Subscriber | undefined,
  guildId?: string,
): Promise<DeliverySettings> {
  const row = s ?? { ...DEFAULT_SUBSCRIBER, guildId: guildId ?? null };
  return {
    mode: row.mode,
    dailyCap: row.dailyCap,
    channelId: row.channelId ?? (await guildNotifyChannel(deps.db, row.guildId ?? guildId)),
  };
}

export async function currentSettings(deps: CommandDeps, input: CommandInput): Promise<DeliverySettings> {
  return deliverySettings(deps, await getSubscriber(deps.db, input.user.id), input.guildId);
}
