/**
 * Errors, as users and operators see them: the expected-vs-bug split, the one redaction of secrets,
 * the short cause a user is shown (never a SQL statement or an upstream's whole answer), and whether
 * the database is what failed. Pure.
 */

/**
 * A mistake the user can fix (bad option, unknown id). Its message is shown as is, ephemerally;
 * anything else thrown is a bug: logged with context, and the user sees a generic message.
 */
export class UserFacingError extends Error {
  override name = 'UserFacingError';
}

/**
 * A service the bot depends on, other than its database, failed (Discord at log-in): said as that
 * service's failure, never taken for the database's even when its socket error is ECONNREFUSED.
 */
export class ExternalServiceError extends Error {
  override name = 'ExternalServiceError';
}

export function isUserFacing(err: unknown): err is UserFacingError {
  return err instanceof UserFacingError;
}

const REDACTED = '[redacted]';

/** Secret values of this process (API key, bot token, database password), redacted wherever they appear. */
const knownSecrets = new Set<string>();

/** Adds values to redact wherever they appear (too short to be a secret: ignored). */
export function registerSecrets(...values: (string | null | undefined)[]): void {
  for (const v of values) if (v && v.length >= 6) knownSecrets.add(v);
}

const SECRET_PATTERNS: [RegExp, string][] = [
  // An echoed header or a key=value pair: `authorization: Bearer x`, `"x-api-key":"x"`, `password=x`.
  // The value must look like a secret (a digit, or 16 characters): prose such as "the bot token:
  // Developer Portal" stays readable.
  [
    /((?:authorization|proxy-authorization|x-api-key|api[_-]?key|access[_-]?token|token|password|passwd|secret)["']?\s*[:=]\s*["']?)(?:(?:Bearer|Basic|Bot)\s+)?(?=[^\s"',;}&]*\d|[^\s"',;}&]{16})[^\s"',;}&]+/gi,
    `$1${REDACTED}`,
  ],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/g, `Bearer ${REDACTED}`],
  // Anthropic keys, Discord bot tokens (three base64url parts), credentials in a URL.
  [/\bsk-ant-[A-Za-z0-9_-]+/g, REDACTED],
  [/\b[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}\b/g, REDACTED],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^:/\s@]+):[^@\s/]+@/gi, `$1:${REDACTED}@`],
];

/** The text with API keys, tokens, passwords and URL credentials replaced by `[redacted]`. Every error text that reaches a log or a user passes here. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of knownSecrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [pattern, by] of SECRET_PATTERNS) out = out.replace(pattern, by);
  return out;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
  severity?: unknown;
  query?: unknown;
}

const asError = (err: unknown): ErrorLike =>
  err && typeof err === 'object' ? (err as ErrorLike) : { message: String(err) };
const messageOf = (err: unknown): string => {
  const m = asError(err).message;
  return typeof m === 'string' ? m : String(err);
};

/** drizzle wraps every database error in "Failed query: <the statement> params: <every value>"; the cause is what went wrong. */
function unwrapQuery(err: unknown): unknown {
  const e = asError(err);
  return typeof e.message === 'string' && e.message.startsWith('Failed query:') && e.cause ? e.cause : err;
}

/** A Postgres server error (postgres.js): a five-character SQLSTATE and a severity. */
function isPostgresError(e: ErrorLike): boolean {
  return typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string';
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/**
 * The database cannot be reached or is restarting (not: a query it refused). Looks inside drizzle's
 * wrapper and an aggregated connect error, but not into other errors' causes: a feed or model API
 * that refused a connection (an HttpError caused by ECONNREFUSED) is not the database.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return !(err instanceof ExternalServiceError) && connectionCode(err) !== undefined;
}

/**
 * The short cause to store and show (feed_state, job_runs, /status, a digest header, the CLI):
 * one line, at most `max` characters, secrets redacted, never the SQL statement or its parameters.
 */
export function errorSummary(err: unknown, max = 300): string {
  const inner = unwrapQuery(err);
  const e = asError(inner);
  let text: string;
  const code = connectionCode(inner);
  if (code) text = `database unavailable (${code})`;
  else if (isPostgresError(e)) text = `database error ${String(e.code)}: ${messageOf(inner)}`;
  else text = messageOf(inner);
  const line = redactSecrets(text.length > max * 4 ? text.slice(0, max * 4) : text)
    .replace(/\s+/g, ' ')
    .trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function connectionCode(err: unknown, depth = 0): string | undefined {
  if (depth > 3 || !err || typeof err !== 'object') return undefined;
  const e = unwrapQuery(err) as ErrorLike;
  if (e !== err) return connectionCode(e, depth + 1);
  if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return e.code;
  return Array.isArray(e.errors) ? e.errors.map((x) => connectionCode(x, depth + 1)).find(Boolean) : undefined;
}

const bound = (s: string, max: number) =>
  s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;

/**
 * An error as a log record: type, message, code and stack, bounded and redacted, with its causes.
 * Replaces pino's default, which copies every enumerable field (drizzle's: the whole statement and
 * every parameter, megabytes for a day's listing).
 */
export function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  const e = asError(err);
  const stack = err instanceof Error && err.stack ? err.stack : undefined;
  const out: Record<string, unknown> = {
    type: typeof e.name === 'string' ? e.name : typeof err,
    message: bound(redactSecrets(messageOf(err)), 2_000),
  };
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = e.code;
  if (stack) out.stack = bound(redactSecrets(stack), 4_000);
  if (depth < 3 && e.cause !== undefined) out.cause = serializeError(e.cause, depth + 1);
  if (depth < 3 && Array.isArray(e.errors)) out.errors = e.errors.slice(0, 5).map((x) => serializeError(x, depth + 1));
  return out;
}
