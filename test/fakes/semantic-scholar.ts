/**
 * A local stand-in for Semantic Scholar's Graph API on 127.0.0.1 that misbehaves like the real one:
 *
 * - it enforces a rate limit: a request arriving less than `windowMs` (1 s) after the previous one is
 *   answered 429 with `Retry-After: 1`, and counted in `violations` (a test asserts none);
 * - `POST /graph/v1/paper/batch?fields=...` answers a JSON array in the order of the ids, `null` for an
 *   id it does not know (or, with `unknownBatch: '404'`, a 404 when it knows none of them), a 400 for
 *   more than 500 ids; without `fields` only `paperId` (as the real API);
 * - `GET /graph/v1/paper/<id>` answers 404 for an unknown id;
 * - with `apiKey` set, a request without that `x-api-key` is refused 403;
 * - `script` forces the next answers (429 with a Retry-After, 500, a slow answer, no answer at all),
 *   `always` forces every answer (a 429 or 5xx storm), `delayMs` slows every answer down.
 *
 * No vitest import: `npx tsx test/fakes/semantic-scholar.ts` runs it for trying the bot in the console.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface S2Paper {
  citationCount: number;
  influentialCitationCount: number;
}

/** A forced answer: a status (with a Retry-After in seconds), an answer `delayMs` late, or none at all. */
export type Forced = { status: number; retryAfter?: string } | { delayMs: number } | { hang: true };

export interface FakeS2Options {
  /** Known papers by arXiv id (without version). */
  papers?: Record<string, S2Paper>;
  windowMs?: number;
  apiKey?: string;
  unknownBatch?: 'nulls' | '404';
  delayMs?: number;
  script?: Forced[];
  always?: Forced;
}

export interface FakeS2Request {
  method: string;
  path: string;
  at: number;
  ids: string[];
  apiKey: string | undefined;
  /** How this request was answered; 0 while unanswered (slow, or never). */
  status: number;
}

export interface FakeS2 {
  /** The S2_API_BASE to configure: `http://127.0.0.1:<port>/graph/v1`. */
  base: string;
  requests: FakeS2Request[];
  /** Requests that came within the window of the previous one (each answered 429). */
  readonly violations: number;
  /** Changes the behaviour between runs (merged into the current options). */
  set(opts: FakeS2Options): void;
  close(): Promise<void>;
}

const MAX_IDS = 500;

export async function startFakeS2(initial: FakeS2Options = {}): Promise<FakeS2> {
  let opts: FakeS2Options = { ...initial, script: [...(initial.script ?? [])] };
  const requests: FakeS2Request[] = [];
  let violations = 0;
  let last = Number.NEGATIVE_INFINITY;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const at = performance.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const ids = idsOf(body);
    const key = header(req, 'x-api-key');
    // Recorded on arrival (status 0 until answered), so a request the client gave up on still counts.
    const entry: FakeS2Request = { method: req.method ?? 'GET', path: url.pathname, at, ids, apiKey: key, status: 0 };
    requests.push(entry);
    const record = (status: number) => void (entry.status = status);
    const tooSoon = at - last < (opts.windowMs ?? 1_000);
    last = at;
    if (tooSoon) {
      violations++;
      record(429);
      return send(res, 429, { message: 'Too Many Requests. Please wait and try again or apply for a key.' }, '1');
    }
    const forced = opts.script?.shift() ?? opts.always;
    if (forced && 'hang' in forced) return record(0);
    const delayMs = (forced && 'delayMs' in forced ? forced.delayMs : 0) + (opts.delayMs ?? 0);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (forced && 'status' in forced) {
      record(forced.status);
      return send(res, forced.status, { message: `forced ${forced.status}` }, forced.retryAfter);
    }
    if (opts.apiKey && key !== opts.apiKey) {
      record(403);
      return send(res, 403, { message: 'Forbidden' });
    }
    const answer = route(req.method ?? 'GET', url, body, ids, opts);
    record(answer.status);
    send(res, answer.status, answer.json);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/graph/v1`,
    requests,
    get violations() {
      return violations;
    },
    set(next) {
      opts = { ...opts, ...next, script: [...(next.script ?? opts.script ?? [])] };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function route(
  method: string,
  url: URL,
  body: string,
  ids: string[],
  opts: FakeS2Options,
): { status: number; json: unknown } {
  const papers = opts.papers ?? {};
  const lookup = (id: string) => {
    const arxiv = /^ARXIV:(.+)$/i.exec(id)?.[1];
    const p = arxiv ? papers[arxiv] : undefined;
    return p && arxiv ? { arxiv, p } : undefined;
  };
  const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
  const shape = (found: { arxiv: string; p: S2Paper }) => {
    const full: Record<string, unknown> = {
      paperId: `s2-${found.arxiv}`,
      externalIds: { ArXiv: found.arxiv },
      ...found.p,
    };
    return Object.fromEntries(Object.entries(full).filter(([k]) => k === 'paperId' || fields.includes(k)));
  };
  if (method === 'POST' && url.pathname === '/graph/v1/paper/batch') {
    if (!safeJson(body) || !Array.isArray((safeJson(body) as { ids?: unknown }).ids))
      return { status: 400, json: { error: 'Unacceptable request body: ids must be a list' } };
    if (ids.length > MAX_IDS) return { status: 400, json: { error: `Cannot process more than ${MAX_IDS} ids` } };
    const out = ids.map((id) => {
      const found = lookup(id);
      return found ? shape(found) : null;
    });
    if (opts.unknownBatch === '404' && out.every((x) => x === null))
      return { status: 404, json: { error: 'Paper(s) not found' } };
    return { status: 200, json: out };
  }
  const single = /^\/graph\/v1\/paper\/(.+)$/.exec(url.pathname);
  if (method === 'GET' && single) {
    const found = lookup(decodeURIComponent(single[1]!));
    return found ? { status: 200, json: shape(found) } : { status: 404, json: { error: 'Paper not found' } };
  }
  return { status: 404, json: { error: 'Not found' } };
}

function send(res: ServerResponse, status: number, json: unknown, retryAfter?: string): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (retryAfter) headers['Retry-After'] = retryAfter;
  res.writeHead(status, headers);
  res.end(JSON.stringify(json));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function idsOf(body: string): string[] {
  const ids = (safeJson(body) as { ids?: unknown } | undefined)?.ids;
  return Array.isArray(ids) ? ids.map(String) : [];
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

// `npx tsx test/fakes/semantic-scholar.ts [port] '<json papers>'`: a fake to point S2_API_BASE at by hand.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const papers = process.argv[2] ? (JSON.parse(process.argv[2]) as Record<string, S2Paper>) : {};
  const fake = await startFakeS2({ papers });
  process.stdout.write(`S2_API_BASE=${fake.base}\n`);
}
