import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import type { Reply } from '../../src/core/reply.ts';

export interface PostedMessage {
  id: string;
  channelId: string;
  nonce: string;
  body: Reply;
}

/**
 * A stand-in for Discord's "create message" and "get channel messages" endpoints on 127.0.0.1
 * that behaves like Discord with `enforce_nonce`: a second request with a nonce it has seen returns
 * the first message instead of posting again, until `forgetNonces()` (Discord remembers a nonce for
 * a few minutes only). Listing a channel's messages shows no nonce, as on Discord. Channels listed
 * in `forbidden` answer 403 Missing Access.
 */
export async function startFakeChannels(opts: { forbidden?: string[] } = {}) {
  const messages: PostedMessage[] = [];
  /** Every "create message" request, deduplicated by nonce or not: who sent what, however Discord answered it. */
  const posts: { channelId: string; nonce: string }[] = [];
  /** Nonces still inside Discord's window. */
  const remembered = new Set<string>();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c));
    req.on('end', () => {
      const channelId = /^\/channels\/(\d+)\/messages(\?.*)?$/.exec(req.url ?? '')?.[1];
      if (!channelId) return void res.writeHead(404).end();
      if (opts.forbidden?.includes(channelId))
        return void res
          .writeHead(403, { 'content-type': 'application/json' })
          .end('{"message":"Missing Access","code":50001}');
      if (req.method === 'GET') {
        const recent = messages
          .filter((m) => m.channelId === channelId)
          .reverse()
          .slice(0, 100)
          .map((m) => ({ id: m.id, reply: m.body }));
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(recent));
      }
      const body = JSON.parse(raw) as { nonce: string; reply: Reply };
      posts.push({ channelId, nonce: body.nonce });
      const seen = remembered.has(`${channelId}|${body.nonce}`)
        ? messages.find((m) => m.channelId === channelId && m.nonce === body.nonce)
        : undefined;
      remembered.add(`${channelId}|${body.nonce}`);
      const message = seen ?? { id: String(1000 + messages.length), channelId, nonce: body.nonce, body: body.reply };
      if (!seen) messages.push(message);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: message.id }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messages,
    posts,
    /** Discord's nonce window has passed: a nonce seen before no longer returns the first message. */
    forgetNonces: () => remembered.clear(),
  };
}
