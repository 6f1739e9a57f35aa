import cron from 'node-cron';
import { z } from 'zod';

/**
 * arXiv category codes (`cs.LG`, `hep-th`, `physics.comp-ph`, `cond-mat.stat-mech`). The API mixes
 * in ACM (`I.2.6`) and MSC (`68T05`) codes under the same element; those never start lower-case.
 */
export const ARXIV_CATEGORY = /^[a-z]+(?:-[a-z]+)*(?:\.[A-Za-z]+(?:-[a-z]+)*)?$/;

/** Comma-separated list -> trimmed non-empty strings. */
const list = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

/** At least one category, each an arXiv category code. */
const categories = list.superRefine((cs, ctx) => {
  if (cs.length === 0)
    ctx.addIssue({ code: 'custom', message: 'must list at least one arXiv category, e.g. "cs.LG,cs.CL"' });
  const bad = cs.filter((c) => !ARXIV_CATEGORY.test(c));
  if (bad.length)
    ctx.addIssue({
      code: 'custom',
      message: `${bad.map((c) => JSON.stringify(c)).join(', ')} ${bad.length === 1 ? 'is not an arXiv category' : 'are not arXiv categories'} (like cs.LG or math.OC)`,
    });
});

/**
 * A duration in milliseconds within `max`: Node's timers take at most 2^31-1 ms and fire after 1 ms
 * beyond it, so HTTP_TIMEOUT_MS=99999999999 would time every request out and a huge pacing
 * interval would pace at 1 ms (breaking arXiv's 3 s rule).
 */
const ms = (min: number, max: number) => z.coerce.number().int().min(min).max(max, `must be at most ${max} ms`);

/** A header value: printable ASCII on one line (a CR or LF would split the request's headers). */
const headerValue = z
  .string()
  .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII on one line (no line breaks or control characters)');

const url = z.url({ protocol: /^https?$/ });

const cronExpr = z.string().refine((s) => cron.validate(s), 'must be a cron expression, e.g. "15 6 * * *"');

const schema = z.object({
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  // Connections the bot keeps open to Postgres (its pool); a managed server or a pooler may allow fewer.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  DISCORD_TOKEN: z.string().min(1).optional(),
  DISCORD_APPLICATION_ID: z
    .string()
    .regex(
      /^\d{15,21}$/,
      'must be a Discord id of 15 to 21 digits (Discord: Developer Mode, then right-click > Copy ID)',
    )
    .optional(),
  DISCORD_GUILD_ID: z
    .string()
    .regex(
      /^\d{15,21}$/,
      'must be a Discord id of 15 to 21 digits (Discord: Developer Mode, then right-click > Copy ID)',
    )
    .optional(),
  DISCORD_API_BASE: url.optional(),
  // Internal sharding in one process: `auto` (Discord's recommendation) or a shard count. Unset: one shard.
  DISCORD_SHARDS: z
    .union([z.literal('auto'), z.coerce.number().int().min(1).max(1024)], 'must be "auto" or a whole number of shards')
    .optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: url.optional(),
  ANTHROPIC_MODEL: z.string().min(1).default('claude-haiku-4-5'),
  // Stop starting LLM calls once today's (UTC) spend plus a conservative estimate for the next call would pass this.
  LLM_DAILY_BUDGET_USD: z.coerce.number().min(0).default(1),
  LLM_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  // More papers than this in one run (a backfill) go through the Message Batches API at half price.
  LLM_BATCH_THRESHOLD: z.coerce.number().int().min(1).default(20),
  LLM_BATCH_POLL_MS: ms(0, 3_600_000).default(30_000),
  // A batch not ended after this long is left running and collected by the next run.
  LLM_BATCH_MAX_WAIT_MS: ms(0, 86_400_000).default(30 * 60_000),
  // The longest one summary call may take, the client's retries included (each attempt gets half).
  LLM_TIMEOUT_MS: ms(100, 3_600_000).default(180_000),
  // The longest an /ask answer may take, both attempts and every retry included; then the user is told.
  ASK_TIMEOUT_MS: ms(100, 600_000).default(30_000),
  // After the polls (POLL_CRON, 06:15 UTC by default), in UTC.
  // Questions one user may ask /ask per UTC hour (each may cost an LLM call); 0 turns /ask off.
  ASK_RATE_PER_HOUR: z.coerce.number().int().min(0).max(1000).default(20),
  SUMMARIZE_CRON: cronExpr.default('45 6 * * *'),
  ARXIV_RSS_BASE: url.default('https://rss.arxiv.org/rss'),
  ARXIV_API_BASE: url.default('https://export.arxiv.org/api/query'),
  HF_API_BASE: url.default('https://huggingface.co/api'),
  ARXIV_CATEGORIES: categories.default(['cs.LG', 'cs.CL', 'cs.AI', 'cs.CV']),
  // arXiv rebuilds its RSS at midnight US Eastern (04:00/05:00 UTC): poll after that, in UTC.
  POLL_CRON: cronExpr.default('15 6 * * *'),
  // Hugging Face's daily list fills and collects upvotes during the day: a second, HF-only pass.
  HF_POLL_CRON: cronExpr.default('0 18 * * *'),
  // arXiv's HTML rendering of papers (full text for settings); a local server in tests.
  ARXIV_HTML_BASE: url.default('https://arxiv.org/html'),
  // Full texts fetched per poll (each one paced arXiv request, 3 s apart); `fetch-text` backfills the rest.
  TEXT_FETCH_PER_POLL: z.coerce.number().int().min(0).max(500).default(10),
  // The most characters of one paper's text stored (the units that matter most are kept).
  TEXT_MAX_CHARS: z.coerce.number().int().min(5_000).max(2_000_000).default(120_000),
  ARXIV_REQUEST_INTERVAL_MS: ms(0, 600_000).default(3000),
  // Semantic Scholar's Graph API: citation counts of the GRPO-family papers, refreshed daily (a local fake in tests).
  S2_API_BASE: url.default('https://api.semanticscholar.org/graph/v1'),
  // Optional: a free key gives one request per second of our own; without it calls share a pool that often answers 429.
  S2_API_KEY: headerValue.optional(),
  S2_CRON: cronExpr.default('30 7 * * *'),
  // Papers per batch request (Semantic Scholar takes at most 500 ids per call).
  S2_BATCH_SIZE: z.coerce.number().int().min(1).max(500).default(500),
  // Between two requests; never under 1 s (the keyed limit). Unset: 1.1 s with a key, 3.5 s without.
  S2_REQUEST_INTERVAL_MS: ms(1_000, 600_000).optional(),
  // Answers 429 in one refresh before it gives up until the next day.
  S2_MAX_RATE_LIMITED: z.coerce.number().int().min(1).max(50).default(5),
  HTTP_TIMEOUT_MS: ms(100, 600_000).default(30_000),
  HTTP_USER_AGENT: headerValue.default(
    'grpo-digest/0.1 (self-hosted paper bot; +https://github.com/grpo-digest/grpo-digest)',
  ),
  // Unset: info for the bot, warn for CLI commands that print results.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  // The operator's endpoint (/healthz, /metrics) while the bot runs; unset: off. Local only unless METRICS_HOST says otherwise.
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z
    .union([z.ipv4(), z.ipv6(), z.hostname()], 'must be an IP address or a host name, e.g. 127.0.0.1')
    .default('127.0.0.1'),
  // /healthz turns unhealthy when no feed was polled successfully for this long, or a message waits this long to be sent.
  HEALTH_MAX_POLL_AGE_HOURS: z.coerce
    .number()
    .min(1)
    .max(24 * 30)
    .default(26),
  HEALTH_MAX_OUTBOX_AGE_MINUTES: z.coerce
    .number()
    .min(5)
    .max(24 * 60 * 7)
    .default(120),
});

export interface Config {
  databaseUrl: string | undefined;
  /** Connections in the pool (session-level advisory locks take one more each while a job runs). */
  databasePoolSize: number;
  dataDir: string;
  discord: {
    token?: string;
    applicationId?: string;
    guildId?: string;
    apiBase?: string;
    /** Shards this one process runs (internal sharding); unset: a single shard. */
    shards?: 'auto' | number;
  };
  anthropic: { apiKey?: string; baseUrl?: string; model: string };
  llm: {
    /** Per UTC day, in US dollars, across every summary call (batch calls at their discounted price). */
    dailyBudgetUsd: number;
    /** Messages API calls in flight at once. */
    concurrency: number;
    /** A run with more papers than this uses the Message Batches API. */
    batchThreshold: number;
    batchPollMs: number;
    batchMaxWaitMs: number;
    /** One call, retries included (a summary's; /ask has its own). */
    timeoutMs: number;
  };
  ask: {
    /** Questions per user per UTC hour. */
    ratePerHour: number;
    /** One answer, both attempts and every retry included. */
    timeoutMs: number;
  };
  sources: {
    arxivRssBase: string;
    arxivApiBase: string;
    hfApiBase: string;
    arxivHtmlBase: string;
    arxivCategories: string[];
    /** arXiv's terms: at most one request every 3 s, RSS and API alike. */
    arxivIntervalMs: number;
    timeoutMs: number;
    userAgent: string;
  };
  /** Semantic Scholar's citation counts (src/services/citations). */
  semanticScholar: {
    apiBase: string;
    /** Sent as `x-api-key`; never logged (registered as a secret). */
    apiKey?: string;
    cron: string;
    batchSize: number;
    /** Between two requests, from the end of one to the start of the next. */
    intervalMs: number;
    /** 429 answers in one refresh before it stops for the day. */
    maxRateLimited: number;
  };
  text: {
    /** Full texts fetched per poll. */
    perPoll: number;
    /** The most characters of one paper's text stored. */
    maxChars: number;
  };
  pollCron: string;
  hfPollCron: string;
  summarizeCron: string;
  /** The health and metrics endpoint; `port` unset: not started. */
  ops: { port?: number; host: string; maxPollAgeMs: number; maxOutboxAgeMs: number };
  /** Unset: info for the bot, warn for CLI commands that print results. */
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the configuration from an environment object, always given (the root passes process.env,
 * tests their own), so the core never reads the process. Pure.
 * Empty strings count as unset, so a copied `.env.example` with blank values works.
 * Throws one ConfigError that names every bad variable at once.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(
      `Invalid configuration:\n${lines.join('\n')}\nFix these environment variables (see .env.example).`,
    );
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: e.DATA_DIR,
    discord: {
      token: e.DISCORD_TOKEN,
      applicationId: e.DISCORD_APPLICATION_ID,
      guildId: e.DISCORD_GUILD_ID,
      apiBase: e.DISCORD_API_BASE,
      shards: e.DISCORD_SHARDS,
    },
    anthropic: { apiKey: e.ANTHROPIC_API_KEY, baseUrl: e.ANTHROPIC_BASE_URL, model: e.ANTHROPIC_MODEL },
    llm: {
      dailyBudgetUsd: e.LLM_DAILY_BUDGET_USD,
      concurrency: e.LLM_CONCURRENCY,
      batchThreshold: e.LLM_BATCH_THRESHOLD,
      batchPollMs: e.LLM_BATCH_POLL_MS,
      batchMaxWaitMs: e.LLM_BATCH_MAX_WAIT_MS,
      timeoutMs: e.LLM_TIMEOUT_MS,
    },
    ask: { ratePerHour: e.ASK_RATE_PER_HOUR, timeoutMs: e.ASK_TIMEOUT_MS },
    sources: {
      arxivRssBase: e.ARXIV_RSS_BASE,
      arxivApiBase: e.ARXIV_API_BASE,
      hfApiBase: e.HF_API_BASE,
      arxivHtmlBase: e.ARXIV_HTML_BASE,
      arxivCategories: e.ARXIV_CATEGORIES,
      arxivIntervalMs: e.ARXIV_REQUEST_INTERVAL_MS,
      timeoutMs: e.HTTP_TIMEOUT_MS,
      userAgent: e.HTTP_USER_AGENT,
    },
    semanticScholar: {
      apiBase: e.S2_API_BASE,
      apiKey: e.S2_API_KEY,
      cron: e.S2_CRON,
      batchSize: e.S2_BATCH_SIZE,
      intervalMs: e.S2_REQUEST_INTERVAL_MS ?? (e.S2_API_KEY ? 1_100 : 3_500),
      maxRateLimited: e.S2_MAX_RATE_LIMITED,
    },
    text: { perPoll: e.TEXT_FETCH_PER_POLL, maxChars: e.TEXT_MAX_CHARS },
    pollCron: e.POLL_CRON,
    hfPollCron: e.HF_POLL_CRON,
    summarizeCron: e.SUMMARIZE_CRON,
    ops: {
      port: e.METRICS_PORT,
      host: e.METRICS_HOST,
      maxPollAgeMs: e.HEALTH_MAX_POLL_AGE_HOURS * 3_600_000,
      maxOutboxAgeMs: e.HEALTH_MAX_OUTBOX_AGE_MINUTES * 60_000,
    },
    logLevel: e.LOG_LEVEL,
  };
}

/** The two variables the bot needs on Discord, or a ConfigError that names each one missing and where to find it. */
export function discordCredentials(config: Config): { token: string; applicationId: string } {
  const missing = [
    !config.discord.token && 'DISCORD_TOKEN (the bot token: Developer Portal > your application > Bot > Reset Token)',
    !config.discord.applicationId &&
      'DISCORD_APPLICATION_ID (Developer Portal > your application > General Information > Application ID)',
  ].filter(Boolean);
  if (missing.length) throw new ConfigError(`Discord needs these variables:\n  ${missing.join('\n  ')}`);
  return { token: config.discord.token!, applicationId: config.discord.applicationId! };
}
