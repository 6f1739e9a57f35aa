/* eslint-disable @typescript-eslint/no-explicit-any -- a fake reads and writes the wire's untyped JSON */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A small fake Discord (test-harness.md §1.7): REST and the gateway on one 127.0.0.1 port. The real
 * discord.js client talks to it through `rest.api` (DISCORD_API_BASE); the gateway URL comes from
 * its GET /gateway/bot. It records every request and answers only what the bot uses.
 */

export const APP_ID = '100000000000000001';
export const GUILD_ID = '200000000000000002';
export const CHANNEL_ID = '300000000000000003';
export const OTHER_CHANNEL_ID = '300000000000000004';
export const WEEKLY_CHANNEL_ID = '300000000000000006';
export const MODERATOR_ROLE_ID = '400000000000000005';

/** Permission bitfields: View Channel, Send Messages, Use Application Commands; plus Manage Server. */
export const PERMISSIONS = { member: '2147486720', manager: String(2147486720n | 32n) } as const;

export interface RecordedRequest {
  method: string;
  /** Decoded (`@original`), without `/api/v10`. */
  path: string;
  query: URLSearchParams;
  body: any; // JSON as sent by the client
  auth: string | null;
  status: number;
  /** Files uploaded with the request (multipart/form-data: `payload_json` is the body, `files[n]` the files). */
  files: UploadedFile[];
  /** When the request arrived (performance.now() of this process): benchmarks time answers with it. */
  at: number;
}

export interface UploadedFile {
  /** The form field, e.g. `files[0]`; its index is the attachment id in the body's `attachments`. */
  field: string;
  name: string;
  contentType: string;
  data: Buffer;
}

interface ScriptedFailure {
  pattern: RegExp;
  method?: string;
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface InteractionOptions {
  /**
   * Options naming channels, as Discord sends them: a channel option (type 7) whose channel comes in
   * `resolved.channels` with the member's permissions there and, if given, the app's.
   */
  channels?: Record<string, { permissions: string; appPermissions?: string }>;
  userId?: string;
  username?: string;
  permissions?: string;
  roles?: string[];
  channelId?: string;
  guildId?: string | null;
}

export interface SentInteraction {
  id: string;
  token: string;
  /** When INTERACTION_CREATE was written to the gateway socket (performance.now()). */
  sentAt: number;
}

/**
 * Discord's rate limits, when the fake should enforce them (benchmarks of the poster's pace): a
 * global budget of bot requests per second (interaction callbacks and webhooks are outside it, as on
 * Discord), and per-channel message buckets announced in X-RateLimit-* headers. A request over
 * either gets 429 with `retry_after`.
 */
export interface RateLimits {
  globalPerSecond: number;
  channelMessages: { limit: number; windowMs: number };
}

type OptionInput = Record<string, string | number | boolean>;

let snowflake = 500000000000000000n;
const nextId = () => String(++snowflake);

function optionType(v: string | number | boolean): number {
  if (typeof v === 'boolean') return 5;
  if (typeof v === 'number') return Number.isInteger(v) ? 4 : 10;
  return 3;
}

export interface FakeDiscordOptions {
  shards?: number;
  extraRoles?: { id: string; name: string }[];
  /** More servers, each with one text channel (`extraChannelIds`), e.g. 1,000 digest channels. */
  extraGuilds?: number;
  rateLimits?: RateLimits;
  /** Added before every REST answer, as a real API's round trip would. */
  latencyMs?: number;
}

export async function startFakeDiscord(opts: FakeDiscordOptions = {}) {
  const requests: RecordedRequest[] = [];
  const gateway: { op: number; d: any }[] = [];
  const failures: ScriptedFailure[] = [];
  const waiters = new Set<{ test: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }>();
  /** Channel messages by id, and by `channel|nonce` for enforce_nonce. */
  const messages: { id: string; channelId: string; body: any; nonce?: string; files: UploadedFile[] }[] = [];
  /** `channel|nonce` pairs past Discord's few minutes of nonce memory (`forgetNonces`): a re-send posts again. */
  const forgottenNonces = new Set<string>();
  /** DM channels opened by POST /users/@me/channels: channel id -> recipient user id. */
  const dmChannels = new Map<string, string>();
  /** Users who do not accept DMs from the bot: a message to their DM channel gets 50007. */
  const refusingDms = new Set<string>();
  /**
   * Gateway sessions by id. Like Discord without sharding across processes, every session identified
   * for a shard gets that shard's events: two processes on one token both receive each interaction.
   */
  const sessions = new Map<string, { shard: number; seq: number; ws: WebSocket }>();
  /** Interactions whose first response (callback) was accepted: Discord refuses a second one (40060). */
  const acknowledged = new Set<string>();
  let identifiedCount = 1;
  let port = 0;

  const botUser = {
    id: APP_ID,
    username: 'grpo-digest',
    discriminator: '0',
    global_name: null,
    avatar: null,
    bot: true,
  };
  const channel = (id: string, name: string) => ({
    id,
    type: 0,
    guild_id: GUILD_ID,
    name,
    position: 0,
    permission_overwrites: [],
    nsfw: false,
    topic: null,
    last_message_id: null,
    parent_id: null,
    rate_limit_per_user: 0,
  });
  const channels = [
    channel(CHANNEL_ID, 'papers'),
    channel(OTHER_CHANNEL_ID, 'general'),
    channel(WEEKLY_CHANNEL_ID, 'weekly'),
  ];
  const role = (id: string, name: string, permissions: string) => ({
    id,
    name,
    color: 0,
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: 0,
    permissions,
    managed: false,
    mentionable: false,
    flags: 0,
  });
  const guild = {
    id: GUILD_ID,
    name: 'GRPO readers',
    icon: null,
    owner_id: '600000000000000001',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    preferred_locale: 'en-US',
    public_updates_channel_id: null,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    roles: [
      role(GUILD_ID, '@everyone', PERMISSIONS.member),
      role(MODERATOR_ROLE_ID, 'Moderators', PERMISSIONS.member),
      ...(opts.extraRoles ?? []).map((r) => role(r.id, r.name, PERMISSIONS.member)),
    ],
    emojis: [],
    stickers: [],
    features: [],
    channels,
    members: [],
    threads: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    joined_at: '2026-01-01T00:00:00.000Z',
    large: false,
    unavailable: false,
    member_count: 2,
  };
  const extraGuilds = Array.from({ length: opts.extraGuilds ?? 0 }, (_, i) => {
    const id = String(210000000000000000n + BigInt(i) * 4194304n); // spread over shards like real ids
    const ch = { ...channel(String(310000000000000000n + BigInt(i)), `digest-${i}`), guild_id: id };
    return {
      ...guild,
      id,
      name: `Server ${i}`,
      roles: [role(id, '@everyone', PERMISSIONS.member)],
      channels: [ch],
      member_count: 1,
    };
  });
  const allGuilds = [guild, ...extraGuilds];
  const allChannels = [...channels, ...extraGuilds.flatMap((g) => g.channels)];
  const shardCount = opts.shards ?? 1;
  const shardOf = (guildId: string, count: number) => Number((BigInt(guildId) >> 22n) % BigInt(count));

  const attachments = (files: UploadedFile[]) =>
    files.map((f) => ({
      id: nextId(),
      filename: f.name,
      size: f.data.length,
      content_type: f.contentType,
      url: `http://127.0.0.1:${port}/attachments/${encodeURIComponent(f.name)}`,
      proxy_url: `http://127.0.0.1:${port}/attachments/${encodeURIComponent(f.name)}`,
    }));
  const message = (channelId: string, body: any, extra: Record<string, unknown> = {}, files: UploadedFile[] = []) => ({
    id: nextId(),
    channel_id: channelId,
    author: botUser,
    content: body?.content ?? '',
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: attachments(files),
    embeds: body?.embeds ?? [],
    pinned: false,
    type: 0,
    flags: body?.flags ?? 0,
    components: body?.components ?? [],
    ...extra,
  });

  function record(r: RecordedRequest): void {
    requests.push(r);
    for (const w of [...waiters]) {
      if (w.test(r)) {
        waiters.delete(w);
        w.resolve(r);
      }
    }
  }

  function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
    if (status === 204) res.writeHead(204, headers).end();
    else res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    return status;
  }

  const channelIds = new Set(allChannels.map((c) => c.id));
  const limiter = opts.rateLimits && rateLimiter(opts.rateLimits);

  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
    query: URLSearchParams,
    body: any,
    files: UploadedFile[],
    limitHeaders: Record<string, string> = {},
  ): number {
    const fail = failures.find((f) => f.pattern.test(path) && (!f.method || f.method === method));
    if (fail) {
      failures.splice(failures.indexOf(fail), 1);
      return json(res, fail.status, fail.body, fail.headers);
    }
    let m: RegExpExecArray | null;
    if (method === 'GET' && path === '/gateway/bot') {
      return json(res, 200, {
        url: `ws://127.0.0.1:${port}`,
        shards: shardCount,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 14_400_000, max_concurrency: 1 },
      });
    }
    if (method === 'POST' && (m = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path))) {
      if (acknowledged.has(m[1]!))
        return json(res, 400, { message: 'Interaction has already been acknowledged.', code: 40060 });
      acknowledged.add(m[1]!);
      if (query.get('with_response') === 'true') {
        return json(res, 200, {
          interaction: {
            id: m[1],
            type: 2,
            activity_instance_id: null,
            response_message_id: null,
            response_message_loading: body?.type === 5,
            response_message_ephemeral: false,
          },
          resource: { type: body?.type, message: body?.data ? message(CHANNEL_ID, body.data, {}, files) : undefined },
        });
      }
      return json(res, 204, null);
    }
    if ((m = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/.exec(path))) {
      if (method === 'DELETE') return json(res, 204, null);
      return json(res, 200, message(CHANNEL_ID, body, { webhook_id: APP_ID, application_id: APP_ID }, files));
    }
    if (method === 'POST' && /^\/webhooks\/(\d+)\/([^/]+)$/.test(path)) {
      return json(res, 200, message(CHANNEL_ID, body, { webhook_id: APP_ID, application_id: APP_ID }, files));
    }
    if (method === 'POST' && path === '/users/@me/channels') {
      const recipient = String(body?.recipient_id ?? '');
      const existing = [...dmChannels].find(([, u]) => u === recipient)?.[0];
      const id = existing ?? nextId();
      dmChannels.set(id, recipient);
      const user = {
        id: recipient,
        username: `user-${recipient.slice(-4)}`,
        discriminator: '0',
        global_name: null,
        avatar: null,
      };
      return json(res, 200, { id, type: 1, last_message_id: null, flags: 0, recipients: [user] });
    }
    if ((m = /^\/channels\/(\d+)\/messages$/.exec(path)) && method === 'POST') {
      const channelId = m[1]!;
      const recipient = dmChannels.get(channelId);
      if (recipient && refusingDms.has(recipient))
        return json(res, 403, { message: 'Cannot send messages to this user', code: 50007 });
      if (!recipient && !channelIds.has(channelId)) return json(res, 404, { message: 'Unknown Channel', code: 10003 });
      const nonce = body?.nonce === undefined ? undefined : String(body.nonce);
      const seen =
        nonce && body?.enforce_nonce && !forgottenNonces.has(`${channelId}|${nonce}`)
          ? messages.find((x) => x.channelId === channelId && x.nonce === nonce)
          : undefined;
      if (seen) return json(res, 200, message(channelId, seen.body, { id: seen.id, nonce }, seen.files), limitHeaders);
      const created = message(channelId, body, nonce ? { nonce } : {}, files);
      messages.push({ id: created.id, channelId, body, nonce, files });
      return json(res, 200, created, limitHeaders);
    }
    if ((m = /^\/channels\/(\d+)\/messages$/.exec(path)) && method === 'GET') {
      // Newest first, as Discord lists them, and without nonces (Discord keeps a nonce only briefly).
      const limit = Math.min(100, Number(query.get('limit') ?? 50));
      const recent = messages
        .filter((x) => x.channelId === m![1])
        .reverse()
        .slice(0, limit)
        .map((x) => message(x.channelId, x.body, { id: x.id }, x.files));
      return json(res, 200, recent);
    }
    if (method === 'POST' && (m = /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/.exec(path))) {
      const thread = {
        id: m[2],
        type: 11,
        guild_id: GUILD_ID,
        parent_id: m[1],
        name: body?.name,
        owner_id: APP_ID,
        thread_metadata: {
          archived: false,
          auto_archive_duration: body?.auto_archive_duration ?? 1440,
          archive_timestamp: new Date().toISOString(),
          locked: false,
        },
      };
      return json(res, 201, thread);
    }
    if (method === 'GET' && (m = /^\/channels\/(\d+)$/.exec(path))) {
      const found = allChannels.find((c) => c.id === m![1]);
      return found ? json(res, 200, found) : json(res, 404, { message: 'Unknown Channel', code: 10003 });
    }
    if (method === 'PUT' && (m = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(path))) {
      const list = Array.isArray(body) ? body : [];
      return json(
        res,
        200,
        list.map((c: Record<string, unknown>) => ({
          id: nextId(),
          application_id: m![1],
          version: nextId(),
          type: 1,
          guild_id: m![2],
          default_member_permissions: null,
          ...c,
        })),
      );
    }
    return json(res, 404, { message: '404: Not Found', code: 0 });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = decodeURIComponent(url.pathname).replace(/^\/api\/v\d+/, '');
      const { body, files } = await parseBody(Buffer.concat(chunks), req.headers['content-type']);
      const method = req.method ?? 'GET';
      const at = performance.now();
      const respond = () => {
        const limited = limiter?.check(method, path, req.headers.authorization ?? null);
        const status = limited
          ? json(res, 429, limited.body, limited.headers)
          : answer(req, res, method, path, url.searchParams, body, files, limiter?.headersFor(method, path));
        record({
          method,
          path,
          query: url.searchParams,
          body,
          auth: req.headers.authorization ?? null,
          status,
          files,
          at,
        });
      };
      if (opts.latencyMs) setTimeout(respond, opts.latencyMs);
      else respond();
    });
  });

  const wss = new WebSocketServer({ server });
  const send = (ws: WebSocket, payload: unknown) => ws.send(JSON.stringify(payload));
  wss.on('connection', (ws) => {
    send(ws, { op: 10, d: { heartbeat_interval: 41_250 } });
    ws.on('message', (raw) => {
      const p = JSON.parse(String(raw)) as { op: number; d: any };
      gateway.push(p);
      if (p.op === 1) send(ws, { op: 11 });
      if (p.op === 2) {
        const [shard = 0, count = 1] = (p.d.shard as [number, number] | undefined) ?? [];
        const sessionId = `session-${nextId()}`;
        sessions.set(sessionId, { shard, seq: 0, ws });
        identifiedCount = count;
        const mine = allGuilds.filter((g) => shardOf(g.id, count) === shard);
        const dispatch = (t: string, d: unknown) => send(ws, { op: 0, t, s: ++sessions.get(sessionId)!.seq, d });
        dispatch('READY', {
          v: 10,
          user: botUser,
          guilds: mine.map((g) => ({ id: g.id, unavailable: true })),
          session_id: sessionId,
          resume_gateway_url: `ws://127.0.0.1:${port}`,
          shard: [shard, count],
          application: { id: APP_ID, flags: 0 },
        });
        for (const g of mine) dispatch('GUILD_CREATE', g);
      }
      if (p.op === 6) {
        const session = sessions.get(p.d.session_id as string);
        if (!session) return send(ws, { op: 9, d: false });
        session.ws = ws;
        session.seq = Math.max(session.seq, Number(p.d.seq));
        send(ws, { op: 0, t: 'RESUMED', s: ++session.seq, d: {} });
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  function dispatch(t: string, d: unknown, guildId = GUILD_ID): void {
    const shard = shardOf(guildId, identifiedCount);
    const open = [...sessions.values()].filter((s) => s.shard === shard && s.ws.readyState === s.ws.OPEN);
    if (open.length === 0) throw new Error(`fake discord: no gateway connection for shard ${shard}`);
    for (const session of open) send(session.ws, { op: 0, t, s: ++session.seq, d });
  }

  function interaction(
    type: number,
    data: unknown,
    o: InteractionOptions,
    extra: Record<string, unknown> = {},
  ): SentInteraction {
    const id = nextId();
    const token = `tok-${id}`;
    const guildId = o.guildId === undefined ? GUILD_ID : o.guildId;
    const channelId = o.channelId ?? CHANNEL_ID;
    const user = {
      id: o.userId ?? '700000000000000001',
      username: o.username ?? 'reader',
      discriminator: '0',
      global_name: null,
      avatar: null,
    };
    const permissions = o.permissions ?? PERMISSIONS.member;
    dispatch('INTERACTION_CREATE', {
      id,
      token,
      application_id: APP_ID,
      type,
      version: 1,
      data,
      ...(guildId
        ? {
            guild_id: guildId,
            guild_locale: 'en-US',
            member: {
              user,
              roles: o.roles ?? [],
              joined_at: '2026-01-01T00:00:00.000Z',
              deaf: false,
              mute: false,
              flags: 0,
              permissions,
              nick: null,
              avatar: null,
            },
          }
        : { user }),
      channel: { id: channelId, type: guildId ? 0 : 1, guild_id: guildId ?? undefined, name: 'papers' },
      channel_id: channelId,
      app_permissions: PERMISSIONS.member,
      locale: 'en-US',
      entitlements: [], // discord.js crashes the process without it (test-harness.md §7.1)
      authorizing_integration_owners: guildId ? { 0: guildId } : { 1: user.id },
      context: guildId ? 0 : 1,
      attachment_size_limit: 8_388_608,
      ...extra,
    });
    return { id, token, sentAt: performance.now() };
  }

  function commandOptions(subcommand: string | undefined, options: OptionInput, focused?: string) {
    const list = Object.entries(options).map(([name, value]) => ({
      name,
      type: optionType(value),
      value,
      ...(name === focused ? { focused: true } : {}),
    }));
    return subcommand ? [{ name: subcommand, type: 1, options: list }] : list;
  }

  return {
    api: `http://127.0.0.1:${port}/api`,
    port,
    requests,
    /** Payloads the client sent over the gateway (IDENTIFY op 2, RESUME op 6, heartbeats op 1). */
    gateway,
    /** Messages created in channels (by the poster), in order. */
    messages,
    /** DM channels the bot opened: channel id -> recipient user id. */
    dmChannels,
    /** Channels of the extra servers (`extraGuilds`), in order. */
    extraChannelIds: extraGuilds.map((g) => g.channels[0]!.id),
    /** 429s sent, by the limit that was hit (with `rateLimits`). */
    rateLimited: limiter?.counts ?? { global: 0, channel: 0 },

    /** Discord's nonce window has passed for every message so far: the same nonce again posts a second message. */
    forgetNonces(): void {
      for (const x of messages) if (x.nonce) forgottenNonces.add(`${x.channelId}|${x.nonce}`);
    },

    /** From now on, messages to this user's DM channel fail with 403 50007 (Cannot send messages to this user). */
    refuseDms(userId: string): void {
      refusingDms.add(userId);
    },

    /** The next request matching `pattern` (and `method`) gets this answer instead, once. */
    failNext(
      pattern: RegExp | string,
      status: number,
      body: unknown = {},
      headers: Record<string, string> = {},
      method?: string,
    ): void {
      failures.push({
        pattern: typeof pattern === 'string' ? new RegExp(pattern) : pattern,
        status,
        body,
        headers,
        method,
      });
    },

    /** Resolves with the first request (already recorded or future) that passes `test`. */
    waitForRequest(test: (r: RecordedRequest) => boolean, timeoutMs = 10_000): Promise<RecordedRequest> {
      const seen = requests.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const w = {
          test,
          resolve: (r: RecordedRequest) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(
            new Error(
              `fake discord: no matching request within ${timeoutMs} ms; got:\n${requests.map((r) => `  ${r.method} ${r.path}`).join('\n')}`,
            ),
          );
        }, timeoutMs);
        waiters.add(w);
      });
    },

    /** Every request answering one interaction (its callback and webhook calls), in order. */
    responsesTo(i: SentInteraction): RecordedRequest[] {
      return requests.filter((r) => r.path.includes(`/${i.token}`));
    },

    /** Waits for a response request of an interaction: the callback by default, or e.g. `PATCH` for the edit. */
    waitForResponse(
      i: SentInteraction,
      test: (r: RecordedRequest) => boolean = (r) => r.path.endsWith('/callback'),
    ): Promise<RecordedRequest> {
      return this.waitForRequest((r) => r.path.includes(`/${i.token}`) && test(r));
    },

    /**
     * The answer a user ends up seeing, however the bot gave it: the immediate reply (type 4), or,
     * after a deferral (type 5, as on a loaded machine), the edit of the placeholder or the
     * ephemeral follow-up that replaces it. Tests assert this, never how fast it came.
     */
    async waitForAnswer(i: SentInteraction): Promise<{ flags?: number; content?: string; [k: string]: unknown }> {
      const callback = (await this.waitForResponse(i)).body as { type: number; data?: Record<string, unknown> };
      if (callback.type !== 5) return (callback.data ?? {}) as { flags?: number; content?: string };
      const final = await this.waitForResponse(
        i,
        (r) =>
          (r.method === 'PATCH' && r.path.endsWith('/messages/@original')) ||
          (r.method === 'POST' && /\/webhooks\/\d+\/[^/]+$/.test(r.path)),
      );
      return final.body as { flags?: number; content?: string };
    },

    dispatch,

    sendChatInput(
      o: InteractionOptions & { name: string; subcommand?: string; options?: OptionInput },
    ): SentInteraction {
      const named = o.channels ?? {};
      const options = commandOptions(o.subcommand, o.options ?? {});
      const asChannel = (list: { type: number; value?: unknown; options?: unknown[] }[]): void => {
        for (const x of list) {
          if (typeof x.value === 'string' && named[x.value]) x.type = 7;
          if (x.options) asChannel(x.options as typeof list);
        }
      };
      asChannel(options as { type: number; value?: unknown }[]);
      const channels = Object.fromEntries(
        Object.entries(named).map(([id, p]) => [
          id,
          {
            ...(allChannels.find((c) => c.id === id) ?? channel(id, `channel-${id.slice(-4)}`)),
            permissions: p.permissions,
            ...(p.appPermissions && { app_permissions: p.appPermissions }),
          },
        ]),
      );
      return interaction(
        2,
        {
          id: nextId(),
          name: o.name,
          type: 1,
          options,
          guild_id: o.guildId ?? GUILD_ID,
          ...(o.channels && { resolved: { channels } }),
        },
        o,
      );
    },

    sendAutocomplete(
      o: InteractionOptions & { name: string; subcommand?: string; options?: OptionInput; focused: string },
    ): SentInteraction {
      return interaction(
        4,
        {
          id: nextId(),
          name: o.name,
          type: 1,
          options: commandOptions(o.subcommand, o.options ?? {}, o.focused),
          guild_id: o.guildId ?? GUILD_ID,
        },
        o,
      );
    },

    pressButton(customId: string, o: InteractionOptions = {}): SentInteraction {
      const on = message(o.channelId ?? CHANNEL_ID, { content: 'a message with buttons' });
      return interaction(3, { custom_id: customId, component_type: 2 }, o, { message: on });
    },

    /** Closes every gateway socket with 4000 (Unknown error): discord.js reconnects and resumes. */
    disconnect(code = 4000): void {
      for (const { ws } of sessions.values()) if (ws.readyState === ws.OPEN) ws.close(code, 'fake disconnect');
    },

    async close(): Promise<void> {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;

/**
 * A request body: JSON, or multipart/form-data as discord.js sends messages with files (the JSON in
 * `payload_json`, each file in `files[n]`), parsed with the platform's own form-data reader.
 */
async function parseBody(raw: Buffer, contentType: string | undefined): Promise<{ body: any; files: UploadedFile[] }> {
  if (contentType?.startsWith('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const files: UploadedFile[] = [];
    for (const [field, value] of form) {
      if (typeof value !== 'string')
        files.push({ field, name: value.name, contentType: value.type, data: Buffer.from(await value.arrayBuffer()) });
    }
    const json = form.get('payload_json');
    return { body: typeof json === 'string' ? JSON.parse(json) : null, files };
  }
  const text = raw.toString('utf8');
  try {
    return { body: text ? JSON.parse(text) : null, files: [] };
  } catch {
    return { body: text, files: [] };
  }
}

/**
 * Fixed windows, as Discord announces them: the global one opens at the first bot request after the
 * last closed; a channel's message bucket opens at its first message and says in its headers how
 * many are left and when it resets.
 */
function rateLimiter(limits: RateLimits) {
  const counts = { global: 0, channel: 0 };
  let global = { start: -Infinity, used: 0 };
  const buckets = new Map<string, { start: number; used: number }>();
  const messageChannel = (method: string, path: string) =>
    method === 'POST' ? /^\/channels\/(\d+)\/messages$/.exec(path)?.[1] : undefined;
  const bucket = (channelId: string, now: number) => {
    let b = buckets.get(channelId);
    if (!b || now >= b.start + limits.channelMessages.windowMs) buckets.set(channelId, (b = { start: now, used: 0 }));
    return b;
  };
  const tooMany = (retryMs: number, isGlobal: boolean) => ({
    body: {
      message: 'You are being rate limited.',
      retry_after: retryMs / 1000,
      global: isGlobal,
      ...(isGlobal ? {} : { code: 0 }),
    },
    headers: {
      'retry-after': String(Math.ceil(retryMs / 1000)),
      'x-ratelimit-scope': isGlobal ? 'global' : 'user',
      ...(isGlobal
        ? { 'x-ratelimit-global': 'true' }
        : {
            'x-ratelimit-limit': String(limits.channelMessages.limit),
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset-after': (retryMs / 1000).toFixed(3),
            'x-ratelimit-bucket': 'channel-messages',
          }),
    },
  });
  return {
    counts,
    /** A 429 for a request over a limit, or undefined (and the request is counted). */
    check(
      method: string,
      path: string,
      auth: string | null,
    ): { body: unknown; headers: Record<string, string> } | undefined {
      if (!auth) return undefined; // interaction callbacks and webhooks: not bot-authenticated, outside the global limit
      const now = performance.now();
      if (now >= global.start + 1000) global = { start: now, used: 0 };
      if (global.used >= limits.globalPerSecond) {
        counts.global++;
        return tooMany(global.start + 1000 - now, true);
      }
      const channelId = messageChannel(method, path);
      const b = channelId ? bucket(channelId, now) : undefined;
      if (b && b.used >= limits.channelMessages.limit) {
        counts.channel++;
        return tooMany(b.start + limits.channelMessages.windowMs - now, false);
      }
      global.used++;
      if (b) b.used++;
      return undefined;
    },
    /** The bucket headers of a message that went through. */
    headersFor(method: string, path: string): Record<string, string> {
      const channelId = messageChannel(method, path);
      const b = channelId ? buckets.get(channelId) : undefined;
      if (!b) return {};
      const resetAfter = Math.max(0, b.start + limits.channelMessages.windowMs - performance.now()) / 1000;
      return {
        'x-ratelimit-limit': String(limits.channelMessages.limit),
        'x-ratelimit-remaining': String(Math.max(0, limits.channelMessages.limit - b.used)),
        'x-ratelimit-reset-after': resetAfter.toFixed(3),
        'x-ratelimit-bucket': 'channel-messages',
      };
    },
  };
}
