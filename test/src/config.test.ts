import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

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

  it('splits the category list and trims it', () => {
    expect(loadConfig({ ARXIV_CATEGORIES: ' cs.LG , stat.ML,,' }).sources.arxivCategories).toEqual(['cs.LG', 'stat.ML']);
  });
});
