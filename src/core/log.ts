import { pino, type Logger } from 'pino';
import { errorSummary, redactSecrets, serializeError } from './errors.ts';

export type { Logger };

/** Paths whose values never reach a log line, wherever they appear in a logged object. */
const REDACT = [
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'password',
  '*.password',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'config.discord.token',
  'config.anthropic.apiKey',
  'config.semanticScholar.apiKey',
  'semanticScholar.apiKey',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  'databaseUrl',
  '*.databaseUrl',
];

/** Errors are logged bounded and redacted (an upstream may echo a key; drizzle attaches whole statements). */
const SERIALIZERS = {
  err: serializeError,
  error: (v: unknown) => (typeof v === 'string' ? redactSecrets(v).slice(0, 2_000) : serializeError(v)),
};

/**
 * The root logger. Logs go to stderr so that stdout stays clean for command output and `--json`.
 * Pretty output when stderr is a terminal, JSON lines otherwise; tests pass a `destination` to read them.
 */
export function createLogger(
  level = 'info',
  opts: {
    pretty?: boolean;
    destination?: { write(line: string): void };
    /** Each entry as one short human line (no stacks, no SQL), for the shell and the console. */
    oneLine?: (line: string) => void;
  } = {},
): Logger {
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' }, base: undefined, serializers: SERIALIZERS };
  if (opts.oneLine) return oneLineLogger(level, opts.oneLine);
  if (opts.destination) return pino(options, opts.destination);
  const pretty = opts.pretty ?? process.stderr.isTTY;
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { destination: 2, ignore: 'pid,hostname' } },
    });
  }
  return pino(options, pino.destination({ fd: 2, sync: true }));
}

/** A logger that writes each entry as `warning: what happened: the short cause`, nothing else. */
function oneLineLogger(level: string, write: (line: string) => void): Logger {
  return pino(
    {
      level,
      base: undefined,
      hooks: {
        logMethod(args, _method, num) {
          const [first, second] = args as unknown[];
          const fields = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
          const msg = typeof first === 'string' ? first : typeof second === 'string' ? second : '';
          const cause =
            fields.err !== undefined
              ? errorSummary(fields.err, 200)
              : typeof fields.error === 'string'
                ? fields.error.slice(0, 200)
                : undefined;
          const label = num >= 50 ? 'error' : num >= 40 ? 'warning' : 'info';
          write(redactSecrets(`${label}: ${msg}${cause ? `: ${cause}` : ''}`).replace(/\s+/g, ' '));
        },
      },
    },
    { write: () => {} },
  );
}
