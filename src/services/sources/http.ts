/**
 * The one way the feed sources talk HTTP: fetch with a per-attempt timeout and a named User-Agent,
 * conditional requests (ETag / Last-Modified), and bounded retries that honour Retry-After.
 *
 * arXiv quirks encoded here: a blank 200 means "called too fast" and is retried like a 503; a non-2xx
 * body (a 406 with text, a 400 carrying a well-formed RSS error document) is never returned as data.
 * arXiv's terms (one request every 3 s, one at a time, RSS and API alike) are met by sharing one
 * `Pacer(3_000)` across every arXiv call.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Deadline, discard, openBody, readCapped, type TextStream } from './http-body.ts';

export type { TextStream } from './http-body.ts';

/** What the server said about the version we hold; sent back to ask "only if changed". */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface HttpOptions {
  /** Sent on every request: name the bot and a contact, as arXiv and Hugging Face ask. */
  userAgent: string;
  /** Per attempt, covering the headers and the whole body. Default 30 s. */
  timeoutMs?: number;
  /** Extra attempts after a 408, 429 or 5xx, a network error, a timeout or a blank 2xx body. Default 3. */
  retries?: number;
  /** Backoff when the server sends no Retry-After: doubles per attempt, with jitter. Default 2 s. */
  baseDelayMs?: number;
  /**
   * Cap on any single wait. A Retry-After beyond it gives up at once, saying when to retry, rather
   * than hold a job (and its advisory lock) for hours. Default 120 s.
   */
  maxDelayMs?: number;
  accept?: string;
  /**
   * The most a response body may hold once decompressed; a larger one (a gzip bomb, a runaway
   * listing) is cut off and fails the request, not retried. Default 16 MiB (a day's arXiv RSS
   * category is a few MB).
   */
  maxBytes?: number;
  /** The clock (deps.now): a Retry-After date is read against it, and a refused wait says when to retry. */
  now: () => Date;
  /** Waits between attempts; tests inject one that records. The default is cut short by `signal`. */
  sleep?: (ms: number) => Promise<void>;
  /** Shared by every request to one host: each attempt, retries included, waits its turn. */
  pacer?: Pacer;
  /** Cancels the whole call (shutdown): the request in flight is aborted and nothing is retried. */
  signal?: AbortSignal;
}

/** `url` is the final URL after redirects; `attempts` counts every request sent, retries included. */
type Result<B> =
  | { status: 'ok'; body: B; httpStatus: number; validators: Validators; attempts: number; url: string }
  | { status: 'not-modified'; validators: Validators; attempts: number; url: string };

export type FetchResult = Result<string>;

/** An expected failure (the server refused, timed out, or kept failing): callers count it and move on. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly url: string;
  readonly attempts: number;
  /** The last response's status; absent for timeouts, network errors and cancellation. */
  readonly httpStatus?: number;
  /** How long the server asked us to wait (Retry-After), when it said. */
  readonly retryAfterMs?: number;

  constructor(
    message: string,
    details: { url: string; attempts: number; httpStatus?: number; retryAfterMs?: number; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.url = details.url;
    this.attempts = details.attempts;
    this.httpStatus = details.httpStatus;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** Retry-After in milliseconds from either form (delay-seconds or an HTTP-date); a past date is 0. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse reads bare numbers such as "1.5" as dates; an HTTP-date always has a day or month name.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Runs tasks one at a time, in call order, at least `minIntervalMs` apart. The interval counts from the
 * end of the previous task, so a slow response never lets the next request start early, and no two
 * requests are ever in flight together.
 */
export class Pacer {
  readonly #minIntervalMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** The queue: each turn chains on the previous one, whatever that one's outcome. */
  #tail: Promise<unknown> = Promise.resolve();
  #lastEnd = Number.NEGATIVE_INFINITY;

  constructor(minIntervalMs: number, opts: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}) {
    this.#minIntervalMs = minIntervalMs;
    // A monotonic timer: the interval is a duration, and a wall-clock step must not shorten it.
    this.#now = opts.now ?? (() => performance.now());
    this.#sleep = opts.sleep ?? ((ms) => delay(ms));
  }

  /** Waits for this caller's turn and the interval, runs `task`, and settles with its outcome. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const turn = this.#tail.then(async () => {
      const wait = this.#lastEnd + this.#minIntervalMs - this.#now();
      if (wait > 0) await this.#sleep(wait);
      try {
        return await task();
      } finally {
        this.#lastEnd = this.#now();
      }
    });
    this.#tail = turn.catch(() => undefined);
    return turn;
  }
}

/** One request's outcome; only `send` decides whether a 'retry' actually gets another attempt. */
type Attempt<B = string> =
  | { kind: 'ok'; body: B; httpStatus: number; validators: Validators; url: string; held?: Promise<void> }
  | { kind: 'not-modified'; validators: Validators; url: string }
  | { kind: 'retry' | 'fail'; problem: string; httpStatus?: number; retryAfterMs?: number; cause?: unknown };

/** 408 and 429 say "later"; a 5xx may be a blip. Every other 4xx would fail the same way again. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

const plural = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;

/**
 * A URL as an error message names it: without a long query (the arXiv API's is hundreds of
 * characters of search terms that would push the cause out of every truncated message).
 */
export function shortUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0 || url.length - q <= 60) return url;
  return `${url.slice(0, q)} (with a ${(url.length - q - 1).toLocaleString('en-US')}-character query)`;
}

/**
 * GET `url` as text. Resolves with the body of a 2xx, or 'not-modified' for a 304 to a conditional
 * request; throws `HttpError` for everything else, after retrying what is worth retrying.
 */
export async function fetchText(
  url: string,
  validators: Validators | undefined,
  opts: HttpOptions,
): Promise<FetchResult> {
  return send(url, { method: 'GET', validators }, opts);
}

export type StreamResult = Result<TextStream>;

/**
 * GET `url` like `fetchText`, but hand the body over as it arrives instead of whole. Retries happen
 * before the first byte of a usable body only; a failure while the body is read (the size cap, a
 * timeout, a dropped connection) throws HttpError from the stream, not retried. The timeout counts
 * the time spent waiting on the network, never the caller's work between reads, and the request
 * keeps its pacer turn until the body is read or cancelled.
 */
export async function fetchStream(
  url: string,
  validators: Validators | undefined,
  opts: HttpOptions,
): Promise<StreamResult> {
  return send(url, { method: 'GET', validators }, opts, openStream(url, opts));
}

/** A POST's body and the headers only it sends (an API key: never part of an error message or a log). */
export interface PostRequest {
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

/**
 * POST `body` to `url` and read the answer as text, with everything `fetchText` does (timeout, size
 * cap, pacing, Retry-After, retries of 408/429/5xx). A redirect is never followed: re-sending a body
 * elsewhere is not ours to decide, so a 3xx fails the request.
 */
export async function postText(
  url: string,
  request: PostRequest,
  opts: HttpOptions,
): Promise<Extract<FetchResult, { status: 'ok' }>> {
  const result = await send(url, { method: 'POST', ...request }, opts);
  if (result.status !== 'ok') throw new HttpError(`POST ${shortUrl(url)}: HTTP 304 to a POST`, { url, attempts: 1 });
  return result;
}

/** One request as `send` makes it: a conditional GET, or a POST with its body and extra headers. */
type Outgoing = { method: 'GET'; validators?: Validators } | ({ method: 'POST' } & PostRequest);

/** Reads a 2xx body: the body, or why it is unusable ('too-large' fails, 'blank' is retried). */
type ReadBody<B> = (res: Response, deadline: Deadline, attempts: number) => Promise<B | 'too-large' | 'blank'>;

async function send(url: string, req: Outgoing, opts: HttpOptions): Promise<FetchResult>;
async function send<B>(url: string, req: Outgoing, opts: HttpOptions, read: ReadBody<B>): Promise<Result<B>>;
async function send<B>(
  url: string,
  req: Outgoing,
  opts: HttpOptions,
  read: ReadBody<B | string> = readText(opts),
): Promise<Result<B | string>> {
  const retries = opts.retries ?? 3;
  const maxDelayMs = opts.maxDelayMs ?? 120_000;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms, undefined, { signal: opts.signal }));
  for (let attempts = 1; ; attempts++) {
    const outcome = await inTurn(opts.pacer, () => attempt(url, req, opts, attempts, read));
    if (outcome.kind === 'ok')
      return {
        status: 'ok',
        body: outcome.body,
        httpStatus: outcome.httpStatus,
        validators: outcome.validators,
        attempts,
        url: outcome.url,
      };
    if (outcome.kind === 'not-modified')
      return { status: 'not-modified', validators: outcome.validators, attempts, url: outcome.url };

    const { problem, httpStatus, retryAfterMs, cause } = outcome;
    const details = { url, attempts, httpStatus, retryAfterMs, cause };
    if (outcome.kind === 'fail')
      throw new HttpError(
        `${req.method} ${shortUrl(url)}: ${problem} (not retried); check the URL and its parameters`,
        details,
      );
    const wait = retryAfterMs ?? backoff(attempts, opts.baseDelayMs ?? 2_000, maxDelayMs);
    if (wait > maxDelayMs) {
      const until = new Date(opts.now().getTime() + wait).toISOString();
      throw new HttpError(
        `${req.method} ${shortUrl(url)}: ${problem} (${plural(attempts)}); the server asks to wait ${Math.ceil(wait / 1000)} s, over the ${Math.round(maxDelayMs / 1000)} s limit: retry after ${until}`,
        details,
      );
    }
    if (attempts > retries)
      throw new HttpError(`${req.method} ${shortUrl(url)}: ${problem} (${plural(attempts)}); try again later`, details);
    try {
      await sleep(wait);
    } catch (err) {
      if (opts.signal?.aborted) throw cancelled(req.method, url, attempts, err);
      throw err;
    }
    if (opts.signal?.aborted) throw cancelled(req.method, url, attempts, opts.signal.reason);
  }
}

async function attempt<B>(
  url: string,
  req: Outgoing,
  opts: HttpOptions,
  attempts: number,
  read: ReadBody<B>,
): Promise<Attempt<B>> {
  const validators = req.method === 'GET' ? req.validators : undefined;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  // The signal reaches the body stream too, so a server that stalls mid-body is cut off as well.
  const deadline = new Deadline(timeoutMs);
  const timeout = deadline.signal;
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    const init: RequestInit =
      req.method === 'GET'
        ? { headers: requestHeaders(validators, opts), signal }
        : {
            method: 'POST',
            body: req.body,
            headers: { ...requestHeaders(undefined, opts), ...req.headers, 'Content-Type': req.contentType },
            signal,
          };
    const res = await fetchSameHost(url, init);
    if (typeof res === 'string') return { kind: 'fail', problem: res };
    if (res.status === 304) {
      await discard(res);
      return { kind: 'not-modified', validators: { ...validators, ...validatorsOf(res) }, url: res.url || url };
    }
    if (!res.ok) {
      await discard(res);
      return {
        kind: retryable(res.status) ? 'retry' : 'fail',
        problem: `HTTP ${res.status}`,
        httpStatus: res.status,
        retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), opts.now().getTime()),
      };
    }
    const body = await read(res, deadline, attempts);
    if (body === 'too-large')
      return { kind: 'fail', problem: tooLarge(opts.maxBytes ?? DEFAULT_MAX_BYTES), httpStatus: res.status };
    if (body === 'blank')
      return { kind: 'retry', problem: `empty body with HTTP ${res.status}`, httpStatus: res.status };
    const held = (body as { held?: Promise<void> }).held;
    return { kind: 'ok', body, httpStatus: res.status, validators: validatorsOf(res), url: res.url || url, held };
  } catch (err) {
    deadline.stop();
    if (opts.signal?.aborted) throw cancelled(req.method, url, attempts, err);
    if (timeout.aborted) return { kind: 'retry', problem: `timed out after ${timeoutMs} ms`, cause: err };
    return { kind: 'retry', problem: `network error ${networkReason(err)}`, cause: err };
  }
}

/** The body as a stream (`fetchStream`); its failures are HttpErrors like the request's own. */
function openStream(url: string, opts: HttpOptions): ReadBody<TextStream> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  return (res, deadline, attempts) =>
    openBody(res, deadline, maxBytes, (cause) => {
      if (cause === 'too-large')
        return new HttpError(`GET ${shortUrl(url)}: ${tooLarge(maxBytes)} (not retried)`, { url, attempts });
      if (opts.signal?.aborted) return cancelled('GET', url, attempts, cause);
      const problem = deadline.signal.aborted
        ? `timed out after ${opts.timeoutMs ?? 30_000} ms`
        : `network error ${networkReason(cause)}`;
      return new HttpError(`GET ${shortUrl(url)}: ${problem} while reading the body (not retried)`, {
        url,
        attempts,
        cause,
      });
    });
}

/**
 * One attempt in the pacer's queue (arXiv: one request at a time, 3 s apart). A streamed body keeps
 * the turn until it is read or cancelled, so the next request waits for the end of this one's body.
 */
function inTurn<B>(pacer: Pacer | undefined, once: () => Promise<Attempt<B>>): Promise<Attempt<B>> {
  if (!pacer) return once();
  return new Promise((resolve, reject) => {
    pacer
      .run(async () => {
        const outcome = await once();
        resolve(outcome);
        if (outcome.kind === 'ok') await outcome.held;
      })
      .catch(reject);
  });
}

const MAX_REDIRECTS = 5;

/**
 * GET following redirects only within the URL's own host (arXiv moves a listing from http to https
 * or to a new path; it never sends us elsewhere). A redirect to another host is not followed, and
 * its answer never becomes a feed: returns why, as a problem to report.
 */
async function fetchSameHost(url: string, init: RequestInit): Promise<Response | string> {
  const host = new URL(url).host;
  let at = url;
  for (let hops = 0; ; hops++) {
    const res = await fetch(at, { ...init, redirect: 'manual' });
    if (res.status < 300 || res.status > 399 || res.status === 304) return res;
    await discard(res);
    if (init.method === 'POST') return `HTTP ${res.status}: a POST is not redirected`;
    const location = res.headers.get('location');
    if (!location) return `HTTP ${res.status} without a Location`;
    const next = new URL(location, at);
    if (next.host !== host) return `redirected to another host (${next.host}), not followed`;
    if (hops >= MAX_REDIRECTS) return `more than ${MAX_REDIRECTS} redirects`;
    at = next.toString();
  }
}

function requestHeaders(validators: Validators | undefined, opts: HttpOptions): Record<string, string> {
  const headers: Record<string, string> = { 'User-Agent': opts.userAgent };
  if (opts.accept) headers.Accept = opts.accept;
  if (validators?.etag) headers['If-None-Match'] = validators.etag;
  if (validators?.lastModified) headers['If-Modified-Since'] = validators.lastModified;
  return headers;
}

function validatorsOf(res: Response): Validators {
  const etag = res.headers.get('etag');
  const lastModified = res.headers.get('last-modified');
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
const tooLarge = (bytes: number) => `response larger than ${megabytes(bytes)} (after decompression)`;

/** The whole body as text (`fetchText`). */
function readText(opts: HttpOptions): ReadBody<string> {
  return async (res, deadline) => {
    try {
      const body = await readCapped(res, opts.maxBytes ?? DEFAULT_MAX_BYTES);
      return body === undefined ? 'too-large' : body.trim() === '' ? 'blank' : body;
    } finally {
      deadline.stop();
    }
  };
}

/** Exponential backoff with equal jitter: half fixed, half random, so waits grow yet pollers spread out. */
function backoff(attempts: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempts - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** undici reports "fetch failed" with the socket error as the cause; its code is the useful part. */
function networkReason(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error) return (cause as NodeJS.ErrnoException).code ?? cause.message;
  return err instanceof Error ? err.message : String(err);
}

function cancelled(method: string, url: string, attempts: number, cause: unknown): HttpError {
  return new HttpError(`${method} ${shortUrl(url)}: cancelled (${plural(attempts)})`, { url, attempts, cause });
}
