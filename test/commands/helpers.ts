import pino from 'pino';
import type { CommandDeps, CommandInput } from '../../src/command.ts';
import { loadConfig } from '../../src/config.ts';
import type { Poster } from '../../src/delivery/poster.ts';
import type { Db } from '../../db/client.ts';
import type { Reply } from '../../src/reply.ts';

/** Command deps over a test database at a fixed instant. */
export function commandDeps(db: Db, now: () => Date, extra: Partial<CommandDeps> = {}): CommandDeps {
  return { db, config: loadConfig({}), log: pino({ level: 'silent' }), now, ...extra };
}

/** A command input from a user of guild g1 in channel c1; managers unless `canManage: false`. */
export function commandInput(subcommand: string | undefined, options: CommandInput['options'], over: Partial<CommandInput> = {}): CommandInput {
  return { user: { id: 'u1', name: 'mod' }, guildId: 'g1', channelId: 'c1', canManage: true, subcommand, options, ...over };
}

/** A Poster that records what it was asked to post. */
export function recordingPoster(): Poster & { posted: { channelId: string; message: Reply; nonce: string }[] } {
  const posted: { channelId: string; message: Reply; nonce: string }[] = [];
  return {
    posted,
    async send(channelId, message, { nonce }) {
      posted.push({ channelId, message, nonce });
      return { messageId: String(posted.length) };
    },
  };
}

/** All text of a reply (content, embeds), for assertions. */
export function replyText(r: Reply): string {
  return [r.content ?? '', ...(r.embeds ?? []).flatMap((e) => [e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value]), e.footer ?? ''])].join('\n');
}
