import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/core/config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults when nothing is set', () => {
    const c = loadConfig({});
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toBe('./data');
    expect(c.discord.token).toBeUndefined();
    expect(c.sources.arxivCategories).toEqual(['cs.LG', 'cs.CL', 'cs.AI', 'cs.CV']);
    expect(c.sources.arxivRssBase).toBe('https://rss.arxiv.org/rss');
  });

  it('treats blank values from a copied .env.example as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', DISCORD_TOKEN: '  ' }).databaseUrl).toBeUndefined();
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', HF_API_BASE: 'not a url', POLL_CRON: 'every day' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const msg = (error as Error).message;
    expect(msg).toContain('DATABASE_URL');
    expect(msg).toContain('LOG_LEVEL');
    expect(msg).toContain('HF_API_BASE');
    expect(msg).toContain('POLL_CRON');
  });

  it('says what a Discord id looks like when it has digits of the wrong length', () => {
    expect(() => loadConfig({ DISCORD_GUILD_ID: '12345' })).toThrow(
      /DISCORD_GUILD_ID: must be a Discord id of 15 to 21 digits/,
    );
  });

  it('splits the category list and trims it', () => {
    expect(loadConfig({ ARXIV_CATEGORIES: ' cs.LG , stat.ML,,' }).sources.arxivCategories).toEqual([
      'cs.LG',
      'stat.ML',
    ]);
  });

  it('refuses at start what would break later, naming each variable', () => {
    let error: unknown;
    try {
      loadConfig({
        HTTP_TIMEOUT_MS: '99999999999',
        ARXIV_REQUEST_INTERVAL_MS: '99999999999',
        LLM_BATCH_POLL_MS: '99999999999',
        HTTP_USER_AGENT: 'grpo-digest\r\nX-Injected: 1',
        ARXIV_CATEGORIES: ',,,',
      });
    } catch (e) {
      error = e;
    }
    const msg = (error as Error).message;
    expect(msg).toContain('HTTP_TIMEOUT_MS: must be at most 600000 ms');
    expect(msg).toContain('ARXIV_REQUEST_INTERVAL_MS: must be at most 600000 ms');
    expect(msg).toContain('LLM_BATCH_POLL_MS: must be at most 3600000 ms');
    expect(msg).toContain('HTTP_USER_AGENT: must be printable ASCII on one line');
    expect(msg).toContain('ARXIV_CATEGORIES: must list at least one arXiv category');
    expect(() => loadConfig({ ARXIV_CATEGORIES: 'cs.LG,machine learning,cs.CL' })).toThrow(
      'ARXIV_CATEGORIES: "machine learning" is not an arXiv category',
    );
  });

  it('leaves LOG_LEVEL unset when it is not given, so each entry point picks its own default', () => {
    expect(loadConfig({}).logLevel).toBeUndefined();
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  });

  it('leaves the operator endpoint off unless METRICS_PORT is set, and binds it to 127.0.0.1 by default', () => {
    expect(loadConfig({}).ops).toMatchObject({
      port: undefined,
      host: '127.0.0.1',
      maxPollAgeMs: 26 * 3_600_000,
      maxOutboxAgeMs: 120 * 60_000,
    });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).ops).toMatchObject({
      port: 9464,
      host: '0.0.0.0',
    });
  });

  it('keeps 10 connections to Postgres unless DATABASE_POOL_SIZE says otherwise, and names a bad one', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('names a bad METRICS_PORT or METRICS_HOST', () => {
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_HOST: 'not a host' })).toThrow(
      /METRICS_HOST: must be an IP address or a host name/,
    );
  });
});
