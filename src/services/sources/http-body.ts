/**
 * Reading a response body for `http.ts`: whole and capped, or as a stream the caller reads at its
 * own pace (capped the same way), under a timeout that counts only the time spent waiting on the
 * network.
 */

/**
 * A per-attempt timeout that can pause: it runs while the request waits on the server (headers, each
 * read of the body) and stops while the caller works on what was read, so storing a page between two
 * reads never times the request out, yet a server that drips its body still gets `ms` in all.
 */
export class Deadline {
  readonly #controller = new AbortController();
  #left: number;
  #since = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ms: number) {
    this.#left = ms;
    this.resume();
  }

  /** Aborted once the time is up. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  resume(): void {
    if (this.#timer || this.#controller.signal.aborted) return;
    this.#since = performance.now();
    this.#timer = setTimeout(
      () => this.#controller.abort(new DOMException('The operation timed out.', 'TimeoutError')),
      Math.max(0, this.#left),
    );
    this.#timer.unref();
  }

  pause(): void {
    if (!this.#timer) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#left -= performance.now() - this.#since;
  }

  /** Done with the request: the timer is cleared for good. */
  stop(): void {
    this.pause();
    this.#left = Number.POSITIVE_INFINITY;
  }
}

/** A body read as it arrives: its text in order. Cancel it when stopping early (frees the connection and the pacer). */
export interface TextStream extends AsyncIterable<string> {
  cancel(): Promise<void>;
}

/** A stream as `http.ts` holds it: settles `held` once the body is read to the end or cancelled. */
export interface HeldStream extends TextStream {
  held: Promise<void>;
}

/** Frees the connection without reading a body we will not use. */
export async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

/** Thrown by a read past the cap; `fail` turns it into the caller's error. */
class TooLarge extends Error {}

const tooLong = (res: Response, maxBytes: number) =>
  Number(res.headers.get('content-length') ?? 0) > maxBytes && !res.headers.get('content-encoding');

/**
 * The body as UTF-8 text (as `res.text()`), or undefined once it passes `maxBytes`: counted on the
 * decompressed stream, so a small gzip that inflates to gigabytes stops at the limit.
 */
export async function readCapped(res: Response, maxBytes: number): Promise<string | undefined> {
  if (tooLong(res, maxBytes)) {
    await discard(res);
    return undefined;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/**
 * Opens the body as a stream once its first text that is not whitespace has arrived ('blank' when
 * there is none, 'too-large' when the headers announce more than `maxBytes`). Reading on past
 * `maxBytes` throws `fail('too-large')`; a failed read throws `fail(cause)`.
 */
export async function openBody(
  res: Response,
  deadline: Deadline,
  maxBytes: number,
  fail: (cause: unknown) => Error,
): Promise<HeldStream | 'too-large' | 'blank'> {
  if (tooLong(res, maxBytes)) {
    deadline.stop();
    await discard(res);
    return 'too-large';
  }
  const reader = res.body?.getReader();
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  /** The next piece of text, or undefined at the end; the deadline runs only while it waits. */
  const next = async (): Promise<string | undefined> => {
    deadline.resume();
    try {
      const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
      if (done) return undefined;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new TooLarge();
      return decoder.decode(value, { stream: true });
    } finally {
      deadline.pause();
    }
  };
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const close = async () => {
    deadline.stop();
    await reader?.cancel().catch(() => undefined);
    release();
  };
  let first = '';
  try {
    while (first.trim() === '') {
      const text = await next();
      if (text === undefined) break;
      first += text;
    }
  } catch (err) {
    await close();
    if (err instanceof TooLarge) return 'too-large';
    throw err;
  }
  if (first.trim() === '') {
    await close();
    return 'blank';
  }
  return { held, cancel: close, [Symbol.asyncIterator]: () => rest(first, next, () => decoder.decode(), close, fail) };
}

async function* rest(
  first: string,
  next: () => Promise<string | undefined>,
  flush: () => string,
  close: () => Promise<void>,
  fail: (cause: unknown) => Error,
): AsyncGenerator<string, void, void> {
  try {
    yield first;
    for (let text = await next(); text !== undefined; text = await next()) yield text;
    const tail = flush();
    if (tail) yield tail;
  } catch (err) {
    throw fail(err instanceof TooLarge ? 'too-large' : err);
  } finally {
    await close();
  }
}
