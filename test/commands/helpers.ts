import pino from 'pino';
import type { CommandDeps, CommandInput } from '../../src/core/command.ts';
import { loadConfig } from '../../src/core/config.ts';
import type { Notifier } from '../../src/core/delivery/notifier.ts';
import { DeliveryError, type Poster } from '../../src/core/delivery/poster.ts';
import type { Db } from '../../db/client.ts';
import type { Reply } from '../../src/core/reply.ts';

/** Command deps over a test database at a fixed instant. */
export function commandDeps(db: Db, now: () => Date, extra: Partial<CommandDeps> = {}): CommandDeps {
  return { db, config: loadConfig({}), log: pino({ level: 'silent' }), now, llm: null, ...extra };
}

/** A command input from a user of guild g1 in channel c1; managers unless `canManage: false`. */
export function commandInput(
  subcommand: string | undefined,
  options: CommandInput['options'],
  over: Partial<CommandInput> = {},
): CommandInput {
  return {
    user: { id: 'u1', name: 'mod' },
    guildId: 'g1',
    channelId: 'c1',
    canManage: true,
    subcommand,
    options,
    ...over,
  };
}

/** A Poster that records what it was asked to post. */
export function recordingPoster(): Poster & {
  posted: { channelId: string; message: Reply; nonce: string; threadName?: string }[];
} {
  const posted: { channelId: string; message: Reply; nonce: string; threadName?: string }[] = [];
  return {
    posted,
    async send(channelId, message, { nonce, threadName }) {
      posted.push({ channelId, message, nonce, ...(threadName && { threadName }) });
      return { messageId: String(posted.length) };
    },
    async findSent(channelId, _message, { nonce }) {
      const i = posted.findIndex((p) => p.channelId === channelId && p.nonce === nonce);
      return i < 0 ? null : { messageId: String(i + 1) };
    },
  };
}

/** A Notifier that records DMs; users in `refusing` have their DMs closed. */
export function recordingNotifier(
  refusing: string[] = [],
): Notifier & { dms: { userId: string; message: Reply; nonce: string }[] } {
  const dms: { userId: string; message: Reply; nonce: string }[] = [];
  return {
    dms,
    async dm(userId, message, { nonce }) {
      if (refusing.includes(userId)) throw new DeliveryError('Cannot send messages to this user', true);
      dms.push({ userId, message, nonce });
      return { messageId: `dm${dms.length}` };
    },
    async post() {
      throw new Error('not used');
    },
  };
}

/** All text of a reply (content, embeds), for assertions. */
export function replyText(r: Reply): string {
  return [
    r.content ?? '',
    ...(r.embeds ?? []).flatMap((e) => [
      e.title ?? '',
      e.description ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
      e.footer ?? '',
    ]),
  ].join('\n');
}
