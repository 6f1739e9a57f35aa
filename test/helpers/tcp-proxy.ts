import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 in front of a server (the test Postgres), to cut the network between the
 * app and its database as a real outage would: `refuse()` drops every connection and refuses new
 * ones (ECONNREFUSED), `stall()` drops every connection and accepts new ones without ever answering
 * (a host that went silent), `restore()` relays again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  let mode: 'relay' | 'refuse' | 'stall' = 'relay';
  const open = new Set<Socket>();
  const track = (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (mode === 'stall') return; // accepted, never answered
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const dropAll = () => {
    for (const s of open) s.destroy();
  };
  return {
    port,
    refuse(): Promise<void> {
      mode = 'refuse';
      dropAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
    stall(): void {
      mode = 'stall';
      dropAll();
    },
    async restore(): Promise<void> {
      dropAll();
      if (!server.listening) await listen(port);
      mode = 'relay';
    },
    async close(): Promise<void> {
      dropAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
