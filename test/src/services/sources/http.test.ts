import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  fetchStream,
  fetchText,
  HttpError,
  Pacer,
  parseRetryAfter,
  postText,
  type HttpOptions,
} from '../../../../src/services/sources/http.ts';

/**
 * A real node:http server on 127.0.0.1, spoken to by the real global fetch. Each request gets the next
 * scripted response (the last one repeats), and its headers are recorded. Sleeps are recorded, not
 * slept, so tests assert the waits asked for, never the clock.
 */
type Respond = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let base: string;
let script: Respond[] = [];
let seen: IncomingHttpHeaders[] = [];

const reply =
  (status: number, body = '', headers: Record<string, string> = {}): Respond =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
const hang: Respond = () => undefined;
const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>cs.LG</title></channel></rss>';
const UA = 'grpo-digest-test/0.1 (mailto:test@example.org)';

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    script[Math.min(seen.length, script.length) - 1]?.(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  script = [];
  seen = [];
});

function options(overrides: Partial<HttpOptions> = {}) {
  const sleeps: number[] = [];
  const opts: HttpOptions = {
    userAgent: UA,
    timeoutMs: 5_000,
    baseDelayMs: 100,
    now: () => new Date(),
    sleep: async (ms) => void sleeps.push(ms),
    ...overrides,
  };
  return { opts, sleeps };
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

describe('fetchText', () => {
  it('returns the body, status and the response validators on 200', async () => {
    script = [reply(200, RSS, { ETag: '"v1"', 'Last-Modified': 'Mon, 02 Mar 2026 00:00:00 GMT' })];
    const { opts, sleeps } = options();
    await expect(fetchText(`${base}/rss/cs.LG`, undefined, opts)).resolves.toEqual({
      status: 'ok',
      body: RSS,
      httpStatus: 200,
      validators: { etag: '"v1"', lastModified: 'Mon, 02 Mar 2026 00:00:00 GMT' },
      attempts: 1,
      url: `${base}/rss/cs.LG`,
    });
    expect(sleeps).toEqual([]);
  });

  it('follows a redirect within its host, and never one to another host, whose answer it does not read', async () => {
    script = [reply(301, '', { Location: '/rss/cs.LG-moved' }), reply(200, RSS)];
    const { opts } = options();
    await expect(fetchText(`${base}/rss/cs.LG`, undefined, opts)).resolves.toMatchObject({
      status: 'ok',
      url: `${base}/rss/cs.LG-moved`,
    });
    // localhost is another host than 127.0.0.1: the same server, so a followed redirect would be seen.
    script = [reply(302, '', { Location: base.replace('127.0.0.1', 'localhost') + '/internal' }), reply(200, 'secret')];
    seen = [];
    const err = await failure(fetchText(`${base}/rss/cs.LG`, undefined, opts));
    expect(err.message).toMatch(/redirected to another host \(localhost:\d+\), not followed/);
    expect(err.message).not.toContain('secret');
    expect(seen).toHaveLength(1);
  });

  it('sends the named User-Agent and Accept on every attempt and no conditional headers without validators', async () => {
    script = [reply(503), reply(200, RSS)];
    await fetchText(`${base}/rss`, undefined, options({ accept: 'application/rss+xml' }).opts);
    expect(seen.map((h) => [h['user-agent'], h.accept])).toEqual([
      [UA, 'application/rss+xml'],
      [UA, 'application/rss+xml'],
    ]);
    expect(seen[0]).not.toHaveProperty('if-none-match');
    expect(seen[0]).not.toHaveProperty('if-modified-since');
  });

  it('sends If-None-Match and If-Modified-Since, and a 304 is not-modified keeping the old validators', async () => {
    script = [reply(304)];
    const validators = { etag: '"v1"', lastModified: 'Mon, 02 Mar 2026 00:00:00 GMT' };
    await expect(fetchText(`${base}/rss`, validators, options().opts)).resolves.toEqual({
      status: 'not-modified',
      validators,
      attempts: 1,
      url: `${base}/rss`,
    });
    expect(seen[0]).toMatchObject({ 'if-none-match': '"v1"', 'if-modified-since': 'Mon, 02 Mar 2026 00:00:00 GMT' });
  });

  it('waits as long as Retry-After says after a 429, then succeeds', async () => {
    script = [reply(429, 'slow down', { 'Retry-After': '1' }), reply(200, RSS)];
    const { opts, sleeps } = options();
    await expect(fetchText(`${base}/api`, undefined, opts)).resolves.toMatchObject({
      status: 'ok',
      body: RSS,
      attempts: 2,
    });
    expect(sleeps).toEqual([1_000]);
  });

  it('honours Retry-After given as an HTTP-date', async () => {
    script = [reply(503, '', { 'Retry-After': new Date(Date.now() + 10_000).toUTCString() }), reply(200, RSS)];
    const { opts, sleeps } = options();
    await expect(fetchText(`${base}/api`, undefined, opts)).resolves.toMatchObject({ status: 'ok', attempts: 2 });
    // HTTP-dates have whole seconds, and some real time passes before the date is read.
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(5_000);
    expect(sleeps[0]).toBeLessThanOrEqual(10_000);
  });

  it('backs off exponentially with jitter on a 503 without Retry-After', async () => {
    script = [reply(503), reply(503), reply(200, RSS)];
    const { opts, sleeps } = options({ baseDelayMs: 100 });
    await expect(fetchText(`${base}/api`, undefined, opts)).resolves.toMatchObject({ status: 'ok', attempts: 3 });
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  it('gives up at once when Retry-After exceeds maxDelayMs, and says when to retry', async () => {
    script = [reply(429, '', { 'Retry-After': '3600' })];
    const { opts, sleeps } = options({ maxDelayMs: 60_000 });
    const err = await failure(fetchText(`${base}/api`, undefined, opts));
    expect(err).toMatchObject({ httpStatus: 429, retryAfterMs: 3_600_000, attempts: 1, url: `${base}/api` });
    expect(err.message).toMatch(/HTTP 429.*wait 3600 s, over the 60 s limit: retry after \d{4}-\d\d-\d\dT/);
    expect(sleeps).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('gives up after the retries on persistent 500s and counts the attempts', async () => {
    script = [reply(500, 'oops')];
    const { opts, sleeps } = options({ retries: 2 });
    const err = await failure(fetchText(`${base}/api`, undefined, opts));
    expect(err).toMatchObject({ httpStatus: 500, attempts: 3 });
    expect(err.message).toBe(`GET ${base}/api: HTTP 500 (3 attempts); try again later`);
    expect(seen).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it.each([
    [404, 'Not Found'],
    [
      400,
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Error</title><item><title>bad category</title></item></channel></rss>`,
    ],
    [406, 'Not Acceptable'],
  ])('fails at once on HTTP %i, never returning its body as data', async (status, body) => {
    script = [reply(status, body), reply(200, RSS)];
    const { opts, sleeps } = options();
    const err = await failure(fetchText(`${base}/rss/cs.XX`, undefined, opts));
    expect(err).toMatchObject({ httpStatus: status, attempts: 1 });
    expect(err.message).toBe(`GET ${base}/rss/cs.XX: HTTP ${status} (not retried); check the URL and its parameters`);
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a blank 200 body, as arXiv sends when called too fast', async () => {
    script = [reply(200, ''), reply(200, ' \n\t'), reply(200, RSS)];
    await expect(fetchText(`${base}/api`, undefined, options().opts)).resolves.toMatchObject({
      status: 'ok',
      body: RSS,
      attempts: 3,
    });
  });

  it('fails with the status when the body stays blank', async () => {
    script = [reply(200, '')];
    const err = await failure(fetchText(`${base}/api`, undefined, options({ retries: 1 }).opts));
    expect(err).toMatchObject({ httpStatus: 200, attempts: 2 });
    expect(err.message).toMatch(/empty body with HTTP 200 \(2 attempts\)/);
  });

  it('times out a server that never answers', async () => {
    script = [hang];
    const err = await failure(fetchText(`${base}/slow`, undefined, options({ timeoutMs: 200, retries: 0 }).opts));
    expect(err.message).toBe(`GET ${base}/slow: timed out after 200 ms (1 attempt); try again later`);
    expect(err.httpStatus).toBeUndefined();
  });

  it('times out a server that stalls in the middle of the body, and retries it', async () => {
    script = [(_req, res) => void res.writeHead(200).write('<rss>')];
    const { opts, sleeps } = options({ timeoutMs: 200, retries: 1 });
    const err = await failure(fetchText(`${base}/slow`, undefined, opts));
    expect(err).toMatchObject({ attempts: 2 });
    expect(err.message).toMatch(/timed out after 200 ms \(2 attempts\)/);
    expect(sleeps).toHaveLength(1);
  });

  it('retries a refused connection and names the error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(fetchText(`http://127.0.0.1:${port}/`, undefined, options({ retries: 1 }).opts));
    expect(err).toMatchObject({ attempts: 2 });
    expect(err.message).toMatch(/network error ECONNREFUSED \(2 attempts\)/);
  });

  it('stops without retrying when the caller cancels', async () => {
    const controller = new AbortController();
    script = [() => controller.abort()];
    const { opts, sleeps } = options({ signal: controller.signal });
    const err = await failure(fetchText(`${base}/slow`, undefined, opts));
    expect(err.message).toBe(`GET ${base}/slow: cancelled (1 attempt)`);
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('makes every attempt, retries included, wait its pacer turn', async () => {
    script = [reply(503, '', { 'Retry-After': '0' }), reply(200, RSS)];
    const paced: number[] = [];
    const pacer = new Pacer(3_000, { now: () => 0, sleep: async (ms) => void paced.push(ms) });
    await expect(fetchText(`${base}/api`, undefined, options({ pacer }).opts)).resolves.toMatchObject({
      status: 'ok',
      attempts: 2,
    });
    expect(paced).toEqual([3_000]);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-02T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP-date relative to now, and a past date as no wait', () => {
    expect(parseRetryAfter('Mon, 02 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 02 Mar 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores a missing or malformed value', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('Pacer', () => {
  /** A fake clock that only moves when the pacer sleeps or a task says it took time. */
  function fakeClock() {
    const clock = { t: 0, sleeps: [] as number[] };
    const pacer = new Pacer(3_000, {
      now: () => clock.t,
      sleep: async (ms) => void (clock.sleeps.push(ms), (clock.t += ms)),
    });
    return { clock, pacer };
  }

  it('spaces tasks by the interval from the end of the previous one', async () => {
    const { clock, pacer } = fakeClock();
    const starts: number[] = [];
    const task = async () => {
      starts.push(clock.t);
      clock.t += 500;
    };
    await Promise.all([pacer.run(task), pacer.run(task), pacer.run(task)]);
    expect(starts).toEqual([0, 3_500, 7_000]);
    expect(clock.sleeps).toEqual([3_000, 3_000]);
  });

  it('does not wait when the interval has already passed', async () => {
    const { clock, pacer } = fakeClock();
    await pacer.run(async () => undefined);
    clock.t += 2_000;
    await pacer.run(async () => undefined);
    clock.t += 5_000;
    await pacer.run(async () => undefined);
    expect(clock.sleeps).toEqual([1_000]);
  });

  it('runs concurrent callers one at a time, in call order', async () => {
    const pacer = new Pacer(0);
    const log: string[] = [];
    let release!: () => void;
    const first = pacer.run(async () => {
      log.push('start 1');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('end 1');
      return 1;
    });
    const second = pacer.run(async () => void log.push('start 2'));
    const third = pacer.run(async () => void log.push('start 3'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['start 1']);
    release();
    await expect(first).resolves.toBe(1);
    await Promise.all([second, third]);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'start 3']);
  });

  it('keeps serving the queue after a task fails, and hands the failure to its caller', async () => {
    const pacer = new Pacer(0);
    const failed = pacer.run(async () => {
      throw new Error('boom');
    });
    const next = pacer.run(async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});

describe('postText', () => {
  it('sends the body, its content type and extra headers, and reads the answer', async () => {
    let body = '';
    script = [
      (req, res) => {
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          res.writeHead(200);
          res.end('[1]');
        });
      },
    ];
    const { opts } = options();
    const r = await postText(
      `${base}/batch`,
      { body: '{"ids":[]}', contentType: 'application/json', headers: { 'x-api-key': 'k-123456' } },
      opts,
    );
    expect(r).toMatchObject({ status: 'ok', body: '[1]' });
    expect(body).toBe('{"ids":[]}');
    expect(seen[0]).toMatchObject({ 'content-type': 'application/json', 'x-api-key': 'k-123456', 'user-agent': UA });
  });

  it('never follows a redirect with the body, even within its host', async () => {
    script = [reply(307, '', { Location: '/elsewhere' }), reply(200, 'moved')];
    const { opts } = options();
    const err = await failure(postText(`${base}/batch`, { body: '{}', contentType: 'application/json' }, opts));
    expect(err.message).toMatch(/^POST .*HTTP 307: a POST is not redirected/);
    expect(seen).toHaveLength(1);
  });
});

describe('fetchStream', () => {
  const read = async (body: AsyncIterable<string>, pause = 0) => {
    let text = '';
    for await (const chunk of body) {
      text += chunk;
      if (pause) await new Promise((resolve) => setTimeout(resolve, pause)); // storing a page
    }
    return text;
  };
  const twoParts: Respond = (_req, res) => {
    res.writeHead(200);
    res.write('<rss version="2.0"><channel>'.padEnd(70_000, ' '));
    setTimeout(() => res.end('</channel></rss>'), 20);
  };

  it('times only the waits on the server: a caller that works longer than the timeout between reads is not cut off', async () => {
    script = [twoParts];
    const res = await fetchStream(`${base}/rss`, undefined, options({ timeoutMs: 200, retries: 0 }).opts);
    if (res.status !== 'ok') throw new Error('expected a body');
    expect((await read(res.body, 300)).trim()).toMatch(/^<rss version="2.0"><channel>\s+<\/channel><\/rss>$/);
  });

  it('fails a body that stalls part-way with a timeout, not retried, after handing over what arrived', async () => {
    script = [(_req, res) => void res.writeHead(200).write('<rss version="2.0">')];
    const res = await fetchStream(`${base}/slow`, undefined, options({ timeoutMs: 200, retries: 3 }).opts);
    if (res.status !== 'ok') throw new Error('expected a body');
    const seenText: string[] = [];
    const err = await failure(
      (async () => {
        for await (const chunk of res.body) seenText.push(chunk);
      })(),
    );
    expect(seenText.join('')).toBe('<rss version="2.0">');
    expect(err.message).toBe(`GET ${base}/slow: timed out after 200 ms while reading the body (not retried)`);
    expect(seen).toHaveLength(1);
  });

  it('keeps its pacer turn until its body is read or cancelled', async () => {
    let firstCancelled = false;
    let cancelledWhenSecondArrived: boolean | undefined;
    script = [
      (_req, res) => void res.writeHead(200).write(RSS.slice(0, 30)),
      (_req, res) => {
        cancelledWhenSecondArrived = firstCancelled;
        res.writeHead(200).end(RSS);
      },
    ];
    const { opts } = options({ pacer: new Pacer(0) });
    const first = await fetchStream(`${base}/rss/a`, undefined, opts);
    const second = fetchStream(`${base}/rss/b`, undefined, opts);
    await new Promise((resolve) => setTimeout(resolve, 100)); // time for a second request, were it allowed
    expect(seen).toHaveLength(1);
    firstCancelled = true;
    if (first.status === 'ok') await first.body.cancel();
    const res = await second;
    expect(cancelledWhenSecondArrived).toBe(true);
    if (res.status === 'ok') expect(await read(res.body)).toBe(RSS);
  });
});
