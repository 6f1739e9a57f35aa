/* eslint-disable @typescript-eslint/no-explicit-any -- a fake reads and writes the wire's untyped JSON */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Anthropic Messages API on 127.0.0.1, for the real SDK: `POST /v1/messages`
 * answers with structured JSON as a text block, and the Message Batches endpoints run the same
 * answers through a batch with an absolute `results_url` pointing back here. Errors carry
 * `retry-after-ms: 1` so the SDK's retries never sleep. No vitest import here, so benchmarks can use
 * it too: tests get it through test/helpers/fake-anthropic.ts, which closes it when the file ends.
 *
 * Answers are scripted per paper: `script('2611.00002', ['malformed', 'ok'])` consumes one step per
 * request whose user turn contains that text; unscripted requests get `fake.otherwise` (a valid
 * summary unless a test sets another step). It misbehaves on request: `hang` (never answers),
 * `hang-body` (headers, then a body that never ends), `truncated` (the connection drops mid-body),
 * `max_tokens` (an answer cut off), any error status with the API's error body (and a message of the
 * test's choosing), and batches that become unknown (404), expired or archived (`fake.loseBatches`).
 */
export type Step =
  | 'ok'
  | 'malformed'
  | 'schema'
  | 'refusal'
  | 'max_tokens'
  | 'hang'
  | 'hang-body'
  | 'truncated'
  | { status: 400 | 401 | 404 | 429 | 500 | 529; message?: string }
  | { answer: unknown };

export type BatchFate = 'not-found' | 'expired' | 'archived';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any; // whatever the SDK sent
}

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>`: the SDK's baseURL. */
  base: string;
  requests: RecordedRequest[];
  /** Requests to POST /v1/messages only. */
  messageRequests(): RecordedRequest[];
  script(match: string, steps: Step[]): void;
  /** Token usage each answer reports. */
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  };
  /** The step for a request no script matches; `ok` unless a test makes every request misbehave. */
  otherwise: Step;
  /** How many GETs of a batch report `in_progress` before it ends. */
  batchPollsBeforeEnd: number;
  /** Every batch submitted so far becomes `not-found` (the key moved to another workspace), `expired` or `archived` (ended without results); later ones are normal. */
  loseBatches(fate: BatchFate): void;
  reset(): void;
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  /**
   * `fixed` (the default, what tests assert on): every answer reports `fake.usage`. `proportional`:
   * synthetic counts that scale with the text, input = ceil(characters of system + user text /
   * `charsPerToken`), output = ceil(characters of the answer text / `charsPerToken`); the prefix up
   * to the last block marked `cache_control` (system or message) is written to the cache the first
   * time and read after that, but only when it reaches `minCacheableTokens` (below it the real API
   * silently caches nothing).
   */
  usage?: 'fixed' | 'proportional';
  /** Characters per token for `proportional` usage; 3.5 by default. */
  charsPerToken?: number;
  /** Smallest cacheable prefix in tokens; 4,096 by default (Claude Haiku 4.5's, per Anthropic's prompt caching docs). */
  minCacheableTokens?: number;
  /** The JSON body of an `ok` answer; by default `validSummary(<arxiv id>)`. */
  okAnswer?: (params: any) => unknown; // the request as the SDK sent it
}

/** A valid answer that names the paper, so tests can tell summaries apart. */
export function validSummary(tag: string): Record<string, unknown> {
  return {
    tldr: `Summary of ${tag}: a GRPO variant that changes clipping.`,
    motivation: 'Token-level clipping is unstable for long responses.',
    method: ['Sequence-level importance ratios', 'Clip the ratio per sequence'],
    results: 'Higher AIME accuracy than GRPO at equal compute.',
    takeaways: 'Match the importance-sampling level to the reward level.',
    grpo_delta: {
      advantage_normalization: 'unchanged',
      clipping: 'changed: per-sequence clipping',
      kl_term: 'n/a',
      loss_aggregation: 'unchanged',
      importance_sampling_level: 'Changed - sequence level',
      sampling_filtering: 'unchanged',
      reward_type: 'unchanged',
    },
    settings: [],
  };
}

const DEFAULT_USAGE = {
  input_tokens: 1000,
  output_tokens: 400,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

export async function startFakeAnthropicServer(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const scripts = new Map<string, Step[]>();
  const batches = new Map<
    string,
    { requests: { custom_id: string; params: any }[]; polls: number; results?: string; fate?: BatchFate }
  >();
  let msgSeq = 0;
  let batchSeq = 0;
  const cachedPrefixes = new Set<string>();
  const charsPerToken = opts.charsPerToken ?? 3.5;
  const minCacheable = opts.minCacheableTokens ?? 4096;
  const tokens = (chars: number) => Math.ceil(chars / charsPerToken);

  /** The user turn's text, where the paper's data block is. */
  const userText = (params: any): string => JSON.stringify(params?.messages ?? []);

  const nextStep = (params: unknown): Step => {
    const text = userText(params);
    for (const [match, steps] of scripts) if (text.includes(match) && steps.length) return steps.shift()!;
    return fake.otherwise;
  };

  const tagOf = (params: unknown): string => /\\"arxiv_id\\": ?\\"([^\\"]+)\\"/.exec(userText(params))?.[1] ?? 'paper';

  type Block = { text?: string; cache_control?: unknown };
  const blocks = (content: unknown): Block[] =>
    typeof content === 'string' ? [{ text: content }] : Array.isArray(content) ? (content as Block[]) : [];

  /** The usage an answer reports: `fake.usage`, or counts proportional to the prompt and the answer. */
  const usageFor = (params: any, answerText: string): FakeAnthropic['usage'] => {
    if (opts.usage !== 'proportional') return { ...fake.usage };
    // The prompt in the API's order (system blocks, then each message's blocks); the cacheable prefix
    // runs up to the last block with a cache breakpoint, wherever it is.
    const all = [
      ...blocks(params?.system),
      ...(params?.messages ?? []).flatMap((m: { content: unknown }) => blocks(m.content)),
    ];
    const allChars = all.reduce((n, b) => n + (b.text?.length ?? 0), 0);
    const last = all.map((b) => b.cache_control !== undefined).lastIndexOf(true);
    const prefix = all
      .slice(0, last + 1)
      .map((b) => b.text ?? '')
      .join('');
    const prefixTokens = last >= 0 && tokens(prefix.length) >= minCacheable ? tokens(prefix.length) : 0;
    const hit = prefixTokens > 0 && cachedPrefixes.has(prefix);
    if (prefixTokens > 0) cachedPrefixes.add(prefix);
    return {
      input_tokens: tokens(allChars) - prefixTokens,
      output_tokens: tokens(answerText.length),
      cache_creation_input_tokens: hit ? 0 : prefixTokens,
      cache_read_input_tokens: hit ? prefixTokens : 0,
    };
  };

  /** One Messages API answer: [status, body], or a misbehaviour of the connection itself. */
  const answer = (params: any): [number, unknown] | 'hang' | 'hang-body' | 'truncated' => {
    const step = nextStep(params);
    if (step === 'hang' || step === 'hang-body' || step === 'truncated') return step;
    if (typeof step === 'object' && 'status' in step) {
      const type = {
        400: 'invalid_request_error',
        401: 'authentication_error',
        404: 'not_found_error',
        429: 'rate_limit_error',
        500: 'api_error',
        529: 'overloaded_error',
      }[step.status];
      return [step.status, { type: 'error', error: { type, message: step.message ?? `scripted ${step.status}` } }];
    }
    const message = (text: string, stop = 'end_turn') => ({
      id: `msg_${++msgSeq}`,
      type: 'message',
      role: 'assistant',
      model: params.model,
      content: [{ type: 'text', text }],
      stop_reason: stop,
      stop_sequence: null,
      usage: usageFor(params, text),
    });
    if (step === 'malformed') return [200, message('{"tldr": "unterminated')];
    if (step === 'schema') return [200, message(JSON.stringify({ tldr: 'only a tldr' }))];
    if (step === 'refusal') return [200, message('I cannot help with that.', 'refusal')];
    if (step === 'max_tokens')
      return [200, message('{"tldr": "A long answer that reached the limit and', 'max_tokens')];
    const body = step === 'ok' ? (opts.okAnswer ?? ((p: unknown) => validSummary(tagOf(p))))(params) : step.answer;
    return [200, message(JSON.stringify(body))];
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(status >= 400 ? { 'retry-after-ms': '1' } : {}),
      ...headers,
    });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const batchObject = (id: string, ended: boolean) => {
    const { fate, requests } = batches.get(id)!;
    const lost = fate === 'expired' || fate === 'archived';
    return {
      id,
      type: 'message_batch',
      processing_status: ended || lost ? 'ended' : 'in_progress',
      request_counts: {
        processing: ended || lost ? 0 : requests.length,
        succeeded: 0,
        errored: 0,
        canceled: 0,
        expired: fate === 'expired' ? requests.length : 0,
      },
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      ended_at: ended || lost ? new Date().toISOString() : null,
      cancel_initiated_at: null,
      archived_at: fate === 'archived' ? new Date().toISOString() : null,
      results_url: ended && !lost ? `${fake.base}/v1/messages/batches/${id}/results` : null,
    };
  };

  /** Connections left open on purpose (`hang`, `hang-body`), ended by `reset` and `close`. */
  const hanging = new Set<ServerResponse>();
  const misbehave = (res: ServerResponse, how: 'hang' | 'hang-body' | 'truncated') => {
    if (how === 'hang') {
      hanging.add(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id":"msg_cut","type":"message","content":[{"type":"te');
    if (how === 'hang-body') hanging.add(res);
    else setTimeout(() => res.socket?.destroy(), 5);
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const body = raw ? JSON.parse(raw) : undefined;
      fake.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      const auth = req.headers.authorization?.startsWith('Bearer ') || typeof req.headers['x-api-key'] === 'string';
      if (!auth) return send(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'no key' } });

      if (req.method === 'POST' && path === '/v1/messages') {
        const out = answer(body);
        if (typeof out === 'string') return misbehave(res, out);
        return send(res, out[0], out[1]);
      }
      if (req.method === 'POST' && path === '/v1/messages/batches') {
        const id = `msgbatch_${++batchSeq}`;
        batches.set(id, { requests: body.requests, polls: 0 });
        return send(res, 200, batchObject(id, false));
      }
      const m = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(path);
      const found = m ? batches.get(m[1]!) : undefined;
      const batch = found?.fate === 'not-found' ? undefined : found;
      if (req.method === 'GET' && m && batch) {
        if (m[2]) {
          // Each request answered once, when the results are first read (scripts are consumed then).
          batch.results ??= batch.requests
            .map((r) => {
              const out = answer(r.params);
              const [status, body] =
                typeof out === 'string' ? [500, { type: 'error', error: { type: 'api_error', message: out } }] : out;
              const result = status === 200 ? { type: 'succeeded', message: body } : { type: 'errored', error: body };
              return JSON.stringify({ custom_id: r.custom_id, result });
            })
            .join('\n');
          res.writeHead(200, { 'content-type': 'application/binary' });
          return res.end(`${batch.results}\n`);
        }
        batch.polls++;
        return send(res, 200, batchObject(m[1]!, batch.polls > fake.batchPollsBeforeEnd));
      }
      return send(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `no route ${req.method} ${path}` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeAnthropic = {
    base: `http://127.0.0.1:${port}`,
    requests: [],
    messageRequests: () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages'),
    script: (match, steps) => scripts.set(match, [...steps]),
    usage: { ...DEFAULT_USAGE },
    otherwise: 'ok',
    batchPollsBeforeEnd: 1,
    loseBatches(fate) {
      for (const b of batches.values()) b.fate = fate;
    },
    reset() {
      fake.requests.length = 0;
      scripts.clear();
      fake.usage = { ...DEFAULT_USAGE };
      fake.otherwise = 'ok';
      fake.batchPollsBeforeEnd = 1;
      cachedPrefixes.clear();
      for (const res of hanging) res.socket?.destroy();
      hanging.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.socket?.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return fake;
}
