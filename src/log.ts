import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line, wherever they appear in a logged object. */
const REDACT = [
  'token', '*.token', 'apiKey', '*.apiKey', 'password', '*.password', 'authorization', '*.authorization',
  'headers.authorization', 'config.discord.token', 'config.anthropic.apiKey', 'databaseUrl', '*.databaseUrl',
];

/**
 * The root logger. Logs go to stderr so that stdout stays clean for command output and `--json`.
 * Pretty output when stderr is a terminal, JSON lines otherwise.
 */
export function createLogger(level = 'info', opts: { pretty?: boolean } = {}): Logger {
  const pretty = opts.pretty ?? process.stderr.isTTY;
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' }, base: undefined };
  if (pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { destination: 2, ignore: 'pid,hostname' } } });
  }
  return pino(options, pino.destination({ fd: 2, sync: true }));
}
