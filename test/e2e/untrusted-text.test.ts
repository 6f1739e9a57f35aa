import { beforeAll, describe, expect, it } from 'vitest';
import { paper } from '../../commands/paper.ts';
import { eq } from 'drizzle-orm';
import { channels, papers } from '../../db/schema.ts';
import { pollFeeds } from '../../jobs/poll-feeds.ts';
import { buildDeps } from '../../src/app.ts';
import type { AppDeps } from '../../src/core/deps.ts';
import { loadConfig } from '../../src/core/config.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { renderInteraction, renderMessage, type MessagePayload } from '../../src/adapters/discord/render.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import { deliverDigests } from '../../src/services/outbox/deliver.ts';
import { commandInput } from '../commands/helpers.ts';
import { createTestDb } from '../helpers/db.ts';
import { startFakeChannels } from '../helpers/fake-channel.ts';
import { rssFeed } from '../helpers/feed-builders.ts';
import { startFeedServer } from '../helpers/feed-server.ts';
import { httpPoster } from '../helpers/http-poster.ts';
import pino from 'pino';

/** What no terminal may receive: escape sequences (ESC, CSI, BEL) and bidi overrides. */
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/; // eslint-disable-line no-control-regex

const TITLE = 'GRPO with \u202eevil\u202c [click here](http://evil.example/t) and zero\u200bwidth';
const ABSTRACT =
  'We train with group relative policy optimization (GRPO) from verifiable rewards. See [the code](http://evil.example/steal) ' +
  'and @everyone. \u001b]8;;http://evil.example\u0007a terminal link\u001b]8;;\u0007 then \u001b[2J a cleared screen.';

/** Every link a Discord payload would make clickable: embed urls, masked links (`[text](url)`, unescaped), link buttons. */
function links(p: MessagePayload): string[] {
  const text = [
    p.content,
    ...p.embeds.flatMap((e) => [e.title ?? '', e.description ?? '', ...(e.fields ?? []).map((f) => f.value)]),
  ].join('\n');
  const masked = [...text.matchAll(/(?<!\\)\[[^\]\n]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  const buttons = p.components.flatMap((row) => row.components.flatMap((b) => ('url' in b && b.url ? [b.url] : [])));
  return [...p.embeds.flatMap((e) => (e.url ? [e.url] : [])), ...masked, ...buttons];
}

describe('untrusted text and links from a hostile feed', { timeout: 60_000 }, () => {
  let deps: AppDeps;
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let fake: Awaited<ReturnType<typeof startFakeChannels>>;
  let now = new Date('2026-11-16T06:15:00Z');

  beforeAll(async () => {
    t = await createTestDb();
    const feeds = await startFeedServer();
    fake = await startFakeChannels();
    const config = loadConfig({
      ARXIV_RSS_BASE: `${feeds.base}/rss`,
      ARXIV_API_BASE: `${feeds.base}/api/query`,
      HF_API_BASE: `${feeds.base}/api`,
      ARXIV_CATEGORIES: 'cs.LG',
      ARXIV_REQUEST_INTERVAL_MS: '0',
    });
    deps = buildDeps({ db: t.db, sql: t.sql, config, log: pino({ level: 'silent' }), now: () => now });
    let day = 0;
    feeds.route((url) => {
      if (url.pathname === '/rss/cs.LG')
        return {
          body: rssFeed(
            'cs.LG',
            now.toISOString().slice(0, 10),
            day === 0 ? [] : [{ id: '2611.60001', title: TITLE, abstract: ABSTRACT }],
          ),
        };
      if (url.pathname === '/api/daily_papers') {
        return {
          body: JSON.stringify(
            day === 0
              ? []
              : [
                  {
                    paper: {
                      id: '2611.60001',
                      title: TITLE,
                      summary: ABSTRACT,
                      upvotes: 5,
                      githubRepo: 'javascript:alert(document.cookie)',
                      projectPage: 'http://evil.example/page',
                    },
                  },
                ],
          ),
        };
      }
      return { body: '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>empty</title></feed>' };
    });
    await pollFeeds(deps); // first poll of each source: nothing is news yet
    day = 1;
    now = new Date('2026-11-17T06:15:00Z');
    await pollFeeds(deps);
    await t.db
      .insert(channels)
      .values({ channelId: '4242', guildId: '1', postTime: '09:00', timezone: 'UTC', minScore: 0 });
  });

  it('shows the paper card on Discord with its markdown as text and only links to known hosts', async () => {
    const card = renderInteraction(await runCommand(paper, commandInput('show', { id: '2611.60001' }), deps));
    expect(JSON.stringify(card)).not.toMatch(/javascript:|\u202e|\u200b(?!everyone)/i);
    expect(links(card).every((u) => /^https:\/\/(arxiv\.org|huggingface\.co)\//.test(u))).toBe(true);
    expect(card.embeds[0]!.description).toContain('See \\[the code\\](http://evil.example/steal)');
  });

  it('lists it in search results with the snippet as text', async () => {
    const list = renderInteraction(
      await runCommand(
        paper,
        commandInput('search', { query: 'group relative policy optimization verifiable rewards evil' }),
        deps,
      ),
    );
    expect(JSON.stringify(list)).toContain('2611.60001');
    expect(links(list).every((u) => /^https:\/\/arxiv\.org\//.test(u))).toBe(true);
  });

  it('posts it in a digest with no masked link, no javascript: button and no live mention', async () => {
    now = new Date('2026-11-17T09:05:00Z');
    await deliverDigests(deps, { poster: httpPoster(fake.base), channelId: '4242' });
    const posted = fake.messages.filter((m) => m.channelId === '4242');
    expect(posted.length).toBeGreaterThan(0);
    const payloads = posted.map((m) => renderMessage(m.body));
    expect(JSON.stringify(payloads)).toContain('2611.60001');
    expect(JSON.stringify(payloads)).not.toMatch(/javascript:|evil\.example\/page/);
    expect(JSON.stringify(payloads)).not.toMatch(/(?<!\u200b)@everyone/);
    for (const p of payloads)
      expect(links(p).every((u) => /^https:\/\/(arxiv\.org|huggingface\.co)\//.test(u))).toBe(true);
  });

  it('writes no escape sequence or bidi override to the terminal, even from a row stored before text was cleaned', async () => {
    await t.db.update(papers).set({ title: TITLE, abstract: ABSTRACT }).where(eq(papers.arxivId, '2611.60001'));
    const shown = await answerLine('/paper show id:2611.60001', deps);
    expect(shown).toContain('a terminal link');
    expect(shown).not.toMatch(TERMINAL_UNSAFE);
    expect(await answerLine('/paper search query:GRPO evil', deps)).not.toMatch(TERMINAL_UNSAFE);
  });
});
