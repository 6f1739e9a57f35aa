import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll } from 'vitest';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/feeds');

/** A recorded-format feed file from test/fixtures/feeds. */
export const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

export interface FakeResponse {
  status?: number;
  body?: string;
  /** A body produced as it is read (a response too large to build up front); stopped when the client goes. */
  stream?: Readable;
  headers?: Record<string, string>;
  /** Never answer (a server that hangs); the request ends when the client goes away. */
  hang?: boolean;
}

/** Answers a request; return undefined for 404. Called with the path and query of each request. */
export type Route = (url: URL, req: IncomingMessage) => FakeResponse | undefined;

export interface FeedServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Every request seen, in order. */
  requests: { path: string; query: URLSearchParams; headers: IncomingMessage['headers'] }[];
  /** Replaces how the server answers (tests change the feeds between polls). */
  route(r: Route): void;
}

/**
 * A local stand-in for rss.arxiv.org, export.arxiv.org and huggingface.co/api on 127.0.0.1,
 * serving the project's recorded-format fixtures to the real fetch and rss-parser.
 * Closed when the test file ends.
 */
export async function startFeedServer(initial: Route = () => undefined): Promise<FeedServer> {
  let route = initial;
  const requests: FeedServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    const r = route(url, req) ?? { status: 404, body: 'not found' };
    if (r.hang) return;
    res.writeHead(r.status ?? 200, r.headers ?? {});
    if (!r.stream) return void res.end(r.body ?? '');
    const stream = r.stream;
    res.on('close', () => stream.destroy());
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a hanging answer would keep it open
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, requests, route: (r) => (route = r) };
}

/** The configuration that points every feed at a local feed server, unpaced (categories: cs.LG unless told). */
export function feedEnv(base: string, categories = 'cs.LG'): Record<string, string> {
  return {
    ARXIV_RSS_BASE: `${base}/rss`,
    ARXIV_API_BASE: `${base}/api/query`,
    HF_API_BASE: `${base}/api`,
    ARXIV_CATEGORIES: categories,
    ARXIV_REQUEST_INTERVAL_MS: '0',
  };
}
