import { describe, expect, it } from 'vitest';
import {
  errorSummary,
  isDatabaseUnavailable,
  redactSecrets,
  registerSecrets,
  serializeError,
} from '../../../src/core/errors.ts';
import { HttpError } from '../../../src/services/sources/http.ts';

/** What drizzle throws for a failed statement: the statement and every parameter, with the driver's error as the cause. */
const drizzleError = (cause: object) =>
  Object.assign(new Error(`Failed query: insert into papers (title) values ($1)\nparams: ${'x'.repeat(100_000)}`), {
    cause,
  });
const postgresError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('redactSecrets', () => {
  it('redacts keys, tokens, passwords and URL credentials wherever an error quotes them', () => {
    const text = redactSecrets(
      [
        '401 {"error":{"message":"you sent authorization: Bearer sk-ant-api03-abcDEF123_xyz"}}',
        'x-api-key: sk-ant-api03-zzz',
        '"api_key":"k-123456789"',
        'connect postgres://grpo:hunter2@127.0.0.1:5432/db',
        'token=MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz12345',
      ].join('\n'),
    );
    expect(text).not.toMatch(/sk-ant|k-123456789|hunter2|MTIzNDU2/);
    expect(text).toContain('postgres://grpo:[redacted]@127.0.0.1:5432/db');
  });

  it('leaves prose about a token or a password readable', () => {
    const help = 'DISCORD_TOKEN (the bot token: Developer Portal > your application > Bot > Reset Token)';
    expect(redactSecrets(help)).toBe(help);
    expect(redactSecrets('password: hunter2')).toBe('password: [redacted]');
    expect(redactSecrets('secret=averylongsecretwithoutdigits')).toBe('secret=[redacted]');
  });

  it('redacts the values this process knows are secret, whatever they look like', () => {
    registerSecrets('plain-looking-secret-42');
    expect(redactSecrets('the upstream said plain-looking-secret-42 twice: plain-looking-secret-42')).toBe(
      'the upstream said [redacted] twice: [redacted]',
    );
  });
});

describe('errorSummary', () => {
  it('shows the database error behind drizzle, never the statement or its parameters', () => {
    const summary = errorSummary(drizzleError(postgresError('22P05', 'unsupported Unicode escape sequence')));
    expect(summary).toBe('database error 22P05: unsupported Unicode escape sequence');
  });

  it('is one line, bounded', () => {
    expect(errorSummary(new Error(`line one\nline two ${'y'.repeat(1_000)}`), 50)).toMatch(/^line one line two y+…$/);
    expect(errorSummary(new Error('y'.repeat(1_000)), 50)).toHaveLength(50);
  });
});

describe('isDatabaseUnavailable', () => {
  it("knows a lost or refused database connection, inside drizzle's wrapper too", () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        drizzleError(Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' })),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(postgresError('57P01', 'terminating connection due to administrator command'))).toBe(
      true,
    );
    expect(errorSummary(drizzleError(Object.assign(new Error('x'), { code: 'CONNECTION_CLOSED' })))).toBe(
      'database unavailable (CONNECTION_CLOSED)',
    );
  });

  it('does not take a feed that refused a connection, or a refused statement, for the database being down', () => {
    const feedDown = new HttpError('GET http://127.0.0.1:9/rss: network error ECONNREFUSED', {
      url: 'http://127.0.0.1:9/rss',
      attempts: 4,
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
    });
    expect(isDatabaseUnavailable(feedDown)).toBe(false);
    expect(isDatabaseUnavailable(drizzleError(postgresError('23505', 'duplicate key')))).toBe(false);
  });
});

describe('serializeError', () => {
  it("logs an error bounded and redacted, with its cause, and none of drizzle's parameters", () => {
    const record = serializeError(
      drizzleError(Object.assign(postgresError('P0001', 'refused for Bearer abcdefghijkl'), {})),
    );
    expect(JSON.stringify(record).length).toBeLessThan(8_000);
    expect(record).toMatchObject({ type: 'Error', cause: { code: 'P0001', message: 'refused for Bearer [redacted]' } });
    expect(record).not.toHaveProperty('params');
  });
});
