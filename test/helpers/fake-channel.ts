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
 * A stand-in for Discord's "create message" endpoint on 127.0.0.1 that behaves like Discord with
 * `enforce_nonce`: a second request with a nonce it has seen returns the first message instead of
 * posting again. Channels listed in `forbidden` answer 403 Missing Access.
 */
export async function startFakeChannels(opts: { forbidden?: string[] } = {}) {
  const messages: PostedMessage[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c));
    req.on('end', () => {
      const channelId = /^\/channels\/(\d+)\/messages$/.exec(req.url ?? '')?.[1];
      if (!channelId) return void res.writeHead(404).end();
      if (opts.forbidden?.includes(channelId))
        return void res
          .writeHead(403, { 'content-type': 'application/json' })
          .end('{"message":"Missing Access","code":50001}');
      const body = JSON.parse(raw) as { nonce: string; reply: Reply };
      const seen = messages.find((m) => m.channelId === channelId && m.nonce === body.nonce);
      const message = seen ?? { id: String(1000 + messages.length), channelId, nonce: body.nonce, body: body.reply };
      if (!seen) messages.push(message);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: message.id }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, messages };
}
