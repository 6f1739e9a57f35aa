import { eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../commands/ask.ts';
import { findCommand, findComponentOwner } from '../../commands/index.ts';
import { paper } from '../../commands/paper.ts';
import { getFeedState } from '../../db/queries/feed-state.ts';
import { channels, paperTexts, papers, summaries } from '../../db/schema.ts';
import { fetchTexts } from '../../jobs/fetch-text.ts';
import type { JobDeps } from '../../jobs/index.ts';
import { httpOptions, pollFeeds, type FeedStats } from '../../jobs/poll-feeds.ts';
import { summarizePending } from '../../jobs/summarize-pending.ts';
import { parseCommandLine, type ParsedLine } from '../../src/adapters/console/parse.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { renderInteraction, renderMessage, type MessagePayload } from '../../src/adapters/discord/render.ts';
import { buildDeps } from '../../src/app.ts';
import type { Command, CommandInput } from '../../src/core/command.ts';
import { loadConfig } from '../../src/core/config.ts';
import { GENERIC_ERROR, runCommand, runComponent } from '../../src/core/dispatch.ts';
import type { Reply } from '../../src/core/reply.ts';
import { deliverDigests } from '../../src/services/outbox/deliver.ts';
import { commandInput } from '../commands/helpers.ts';
import { createTestDb } from '../helpers/db.ts';
import { startFakeAnthropic, validSummary, type Step } from '../helpers/fake-anthropic.ts';
import { startFakeChannels } from '../helpers/fake-channel.ts';
import { rssFeed } from '../helpers/feed-builders.ts';
import { feedEnv, startFeedServer } from '../helpers/feed-server.ts';
import { httpPoster } from '../helpers/http-poster.ts';
import {
  brokenRssDocuments,
  hostileAskAnswers,
  hostileButtonIds,
  hostileCommandLines,
  hostileHfItems,
  hostileHtmlPages,
  hostileRssItems,
  hostileSummaryAnswers,
  wrongTypeOptions,
} from '../helpers/red-team-inputs.ts';

/**
 * The red-team pass (issue 26, docs/RELIABILITY.md): over 300 hostile inputs, batched (one poll of a
 * feed of 100+ hostile items, one app for every command), each recorded with its outcome. What a user
 * relies on is asserted for each: nothing can ping, the rest of the batch is stored intact, a bad
 * command gets a short answer (never the generic "something went wrong"), nothing crashes or is
 * posted twice.
 */
const attempts: { cls: string; label: string; outcome: string }[] = [];
const record = (cls: string, label: string, outcome: string) => attempts.push({ cls, label, outcome });

/** What can ping on Discord: a mention's syntax not broken by a zero-width space (a channel link pings no one). */
const LIVE_MENTION = /@(everyone|here)\b|<@[!&]?\d+>/i;
/** What no terminal may receive: escape sequences (ESC, CSI, BEL) and bidi overrides. */
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/; // eslint-disable-line no-control-regex
/** What an error answer must not show: internals. */
const INTERNALS = /Failed query|insert into|select .* from|\bat [\w.]+ \(|stack|ECONN|postgres:\/\//i;

/** Everything a payload shows. */
const shown = (p: MessagePayload) =>
  [
    p.content,
    ...p.embeds.flatMap((e) => [
      e.title ?? '',
      e.description ?? '',
      e.footer?.text ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
    ]),
    ...p.components.flatMap((r) => r.components.map((b) => ('label' in b ? (b.label ?? '') : ''))),
  ].join('\n');

/** Every link a payload makes clickable (embed urls, unescaped masked links, link buttons). */
const links = (p: MessagePayload) => [
  ...p.embeds.flatMap((e) => (e.url ? [e.url] : [])),
  ...[...shown(p).matchAll(/(?<!\\)\[[^\]\n]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!),
  ...p.components.flatMap((r) => r.components.flatMap((b) => ('url' in b && b.url ? [b.url] : []))),
];

/**
 * The Discord payload cannot ping, and a public one links only to https hosts that are not the
 * attacker's. (A private refusal may echo a link the member typed, to that member alone.)
 */
function expectSafe(p: MessagePayload & { flags?: number }, what: string): void {
  expect(p.allowedMentions, what).toEqual({ parse: [] });
  // A link's target is not text that can mention (and Discord parses none in an embed): checked as a link.
  expect(shown(p).replace(/\]\([^)\s]*\)/g, ']'), what).not.toMatch(LIVE_MENTION);
  if (!p.flags)
    for (const u of links(p))
      expect(u, `${what}: ${shown(p).slice(0, 400)}`).toMatch(/^https:\/\/(?!127\.|[^/]*evil\.example|[^/]*netlify)/);
}

/** A refusal is short, names no internals; nothing is ever the generic error of a bug. */
function expectAnswered(r: Reply, what: string): string {
  expect(r.content ?? '', what).not.toBe(GENERIC_ERROR);
  if (r.ephemeral && !r.embeds?.length) {
    expect(r.content!.length, what).toBeLessThanOrEqual(2000); // one message (a refusal may list what the member follows)
    expect(r.content, what).not.toMatch(INTERNALS);
    return 'refused with a short message';
  }
  return 'answered';
}

/** A console line as the command and options it names, or undefined when the parser refuses it. */
function parsed_(line: string): ParsedLine | undefined {
  try {
    return parseCommandLine(line, findCommand);
  } catch {
    return undefined;
  }
}

afterAll(() => {
  const byClass = new Map<string, Map<string, number>>();
  for (const a of attempts) {
    const m = byClass.get(a.cls) ?? new Map<string, number>();
    m.set(a.outcome, (m.get(a.outcome) ?? 0) + 1);
    byClass.set(a.cls, m);
  }
  const lines = [...byClass].map(([c, m]) => `${c}: ${[...m].map(([o, n]) => `${n} ${o}`).join(', ')}`);
  console.info(`red team: ${attempts.length} attempts\n${lines.join('\n')}`);
});

describe('red team: hostile feed items and documents in one poll', { timeout: 120_000 }, () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let deps: JobDeps;
  let now = new Date('2026-11-16T06:15:00Z');
  const rss = hostileRssItems();
  const hf = hostileHfItems();
  const broken = brokenRssDocuments();
  let stats: Record<string, FeedStats>;

  beforeAll(async () => {
    t = await createTestDb();
    const server = await startFeedServer();
    const categories = ['cs.LG', ...broken.map((b) => b.category)].join(',');
    deps = buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => now,
      config: loadConfig(feedEnv(server.base, categories)),
    });
    server.route((url) => {
      const cat = url.pathname.slice(5);
      if (url.pathname === '/rss/cs.LG') return { body: rssFeed('cs.LG', '2026-11-16', rss) };
      const doc = broken.find((b) => b.category === cat);
      if (doc) return { body: doc.body };
      if (url.pathname === '/api/query')
        return { body: '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>empty</title></feed>' };
      if (url.pathname === '/api/daily_papers')
        return {
          body:
            url.searchParams.get('date') === '2026-11-16' && url.searchParams.get('p') === '0'
              ? JSON.stringify(hf.map((h) => h.item))
              : '[]',
        };
      return undefined;
    });
    stats = (await pollFeeds(deps)).feeds as Record<string, FeedStats>;
  });

  const stored = async (ids: string[]) =>
    new Map((await t.db.select().from(papers).where(inArray(papers.arxivId, ids))).map((p) => [p.arxivId!, p]));

  it('stores every hostile RSS item it can, skips and counts the rest, and fails no feed for one item', async () => {
    expect(stats['arxiv-rss:cs.LG']).toMatchObject({ status: 'ok' });
    const rows = await stored(rss.map((r) => r.id));
    for (const item of rss) {
      const p = rows.get(item.id);
      if (item.expect === 'stored') expect(p, item.label).toBeDefined();
      if (item.expect === 'skipped') expect(p, item.label).toBeUndefined();
      if (p) expect(p.arxivVersion ?? 1, item.label).toBeGreaterThanOrEqual(1);
      if (p) {
        // Intact: what was sent is what is stored, minus characters no paper needs.
        expect(p.title, item.label).not.toMatch(/[\u0000\u202e\u200b\ud800]/); // eslint-disable-line no-control-regex
        if (item.label.startsWith('title:')) expect(p.title, item.label).toMatch(/^Group Relative Policy Optimization/);
        if (item.label.startsWith('abstract:')) expect(p.abstract, item.label).toMatch(/^We train language models/);
      }
      record('feed items (RSS)', item.label, p ? 'stored' : 'skipped, counted');
    }
  });

  it('stores every well-formed Hugging Face item beside items of the wrong shape', async () => {
    expect(stats['hf-daily']).toMatchObject({ status: 'ok' });
    const rows = await stored(hf.flatMap((h) => (h.id ? [h.id] : [])));
    for (const h of hf) {
      const p = h.id ? rows.get(h.id) : undefined;
      if (h.label.startsWith('title:') || h.label.startsWith('summary:')) expect(p, h.label).toBeDefined();
      if (p?.publishedOn) expect(p.publishedOn <= '2026-11-17', `${h.label}: ${p.publishedOn}`).toBe(true);
      record('feed items (HF JSON)', h.label, p ? 'stored' : 'skipped, counted');
    }
    const dup = await t.db
      .select()
      .from(papers)
      .where(eq(papers.arxivId, hf.at(-1)!.id!));
    expect(dup).toHaveLength(1);
  });

  it('keeps the good item of each broken RSS document; a document broken as a whole fails its feed alone, quoting nothing', async () => {
    const rows = await stored(broken.map((b) => b.good));
    for (const b of broken) {
      const s = stats[`arxiv-rss:${b.category}`];
      if (!b.whole) expect(rows.get(b.good), b.label).toBeDefined();
      if (s?.status === 'failed') {
        const state = await getFeedState(t.db, `arxiv-rss:${b.category}`);
        expect(state!.lastError ?? '', b.label).not.toMatch(/hunter2|root:x:/);
      }
      record('feed documents (XML)', b.label, rows.has(b.good) ? 'good item stored' : `feed ${s?.status}, reported`);
    }
    const all = await t.db.select({ title: papers.title, abstract: papers.abstract }).from(papers);
    expect(JSON.stringify(all)).not.toMatch(/root:x:0|hunter2|(aaaaaaaaaa){1000}/);
  });

  it('shows every stored paper on Discord with no ping and no foreign link, and in the console with no escape', async () => {
    const all = await t.db.select({ arxivId: papers.arxivId }).from(papers);
    expect(all.length).toBeGreaterThan(150);
    for (const { arxivId } of all) {
      const reply = await runCommand(paper, commandInput('show', { id: arxivId! }), deps);
      expect(reply.content ?? '', arxivId!).not.toBe(GENERIC_ERROR);
      expectSafe(renderInteraction(reply), arxivId!);
    }
    for (const { arxivId } of all.slice(0, 40))
      expect(await answerLine(`/paper show id:${arxivId}`, deps)).not.toMatch(TERMINAL_UNSAFE);
  });

  it('posts the digest of the hostile papers once, pinging no one, even re-run after the nonce window', async () => {
    const fake = await startFakeChannels();
    await t.db.update(papers).set({ newsAt: now });
    await t.db
      .insert(channels)
      .values({ channelId: '4242', guildId: '1', postTime: '09:00', timezone: 'UTC', minScore: 0, maxPapers: 25 });
    now = new Date('2026-11-16T09:05:00Z');
    await deliverDigests(deps, { poster: httpPoster(fake.base), channelId: '4242' });
    const first = fake.messages.length;
    expect(first).toBeGreaterThan(0);
    fake.forgetNonces();
    await deliverDigests(deps, { poster: httpPoster(fake.base), channelId: '4242' });
    expect(fake.messages).toHaveLength(first);
    const cards = fake.messages.flatMap((m) => renderMessage(m.body).embeds.map((e) => e.title ?? ''));
    expect(new Set(cards).size).toBe(cards.length);
    for (const m of fake.messages) expectSafe(renderMessage(m.body), `digest ${m.id}`);
    record('digest', 'digest of 25 hostile papers, re-run after the nonce window', 'posted once, no ping');
  });
});

describe('red team: hostile command input, button ids and model answers on one app', { timeout: 120_000 }, () => {
  let deps: JobDeps;
  let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
  let before: number;
  let t: Awaited<ReturnType<typeof createTestDb>>;
  const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(papers))[0]!.n;

  beforeAll(async () => {
    t = await createTestDb({ seeded: true });
    fake = await startFakeAnthropic();
    deps = buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => new Date('2026-11-16T10:00:00Z'),
      config: loadConfig({
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.base,
        LLM_DAILY_BUDGET_USD: '1000',
        LLM_TIMEOUT_MS: '2000',
      }),
    });
    before = await count();
  });

  it('answers every hostile console line, in Discord and the terminal, without a crash or a ping', async () => {
    for (const line of hostileCommandLines()) {
      const text = await answerLine(line, deps);
      expect(text, line).not.toContain(GENERIC_ERROR);
      expect(text, line).not.toMatch(TERMINAL_UNSAFE);
      const parsed = parsed_(line);
      // The same options as Discord would send them, rendered as the Discord adapter would.
      const reply = parsed && (await runCommand(parsed.command, commandInput(parsed.subcommand, parsed.options), deps));
      if (reply) expectSafe(renderInteraction(reply), line);
      record(
        'commands (console lines)',
        line.slice(0, 60),
        reply ? expectAnswered(reply, line) : 'refused by the parser',
      );
    }
    expect(await count()).toBe(before);
  });

  it('checks option types server side: a value of the wrong type gets a short answer', async () => {
    for (const w of wrongTypeOptions()) {
      const cmd = findCommand(w.command) as Command;
      const input = commandInput(w.subcommand, w.options as CommandInput['options']);
      const reply = await runCommand(cmd, input, deps);
      const outcome = expectAnswered(reply, w.label);
      expectSafe(renderInteraction(reply), w.label);
      record('commands (wrong option types)', w.label, outcome);
    }
  });

  it('answers forged and stale button ids with a short private message', async () => {
    for (const id of hostileButtonIds()) {
      const owner = findComponentOwner(id);
      const text = await answerLine(`/press ${id}`, deps);
      expect(text, id).not.toContain(GENERIC_ERROR);
      if (owner) {
        const reply = await runComponent(
          owner,
          { user: { id: 'u1', name: 'u' }, canManage: false, guildId: 'g1', channelId: 'c1', customId: id },
          deps,
        );
        expectAnswered(reply, id);
        expectSafe(renderInteraction(reply), id);
      }
      record('button ids', id.slice(0, 40), owner ? 'refused by its owner' : 'no owner: refused');
    }
    expect(await count()).toBe(before);
  });

  it('shows hostile /ask answers as text: no ping, no masked link, no crash', async () => {
    let i = 0;
    for (const a of hostileAskAnswers()) {
      fake.otherwise = a.step as Step;
      const input = commandInput(undefined, { question: `which paper clips the ratio per sequence in GRPO? (${++i})` });
      const reply = await runCommand(ask, input, deps);
      const outcome = expectAnswered(reply, a.label);
      const payload = renderInteraction(reply);
      expectSafe(payload, a.label);
      expect(shown(payload), a.label).not.toMatch(/\u202e|\u001b/); // eslint-disable-line no-control-regex
      record('LLM answers (/ask)', a.label, outcome);
    }
    fake.otherwise = 'ok';
  });
});

describe('red team: hostile summaries and full texts', { timeout: 120_000 }, () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let deps: JobDeps;
  let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
  const pages = hostileHtmlPages();

  beforeAll(async () => {
    t = await createTestDb();
    fake = await startFakeAnthropic();
    const server = await startFeedServer((url) => {
      const i = Number(/^\/html\/2611\.6(\d{4})v1$/.exec(url.pathname)?.[1] ?? -1);
      return pages[i] ? { body: pages[i].html, headers: { 'content-type': 'text/html' } } : undefined;
    });
    deps = buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => new Date('2026-11-21T06:45:00Z'),
      config: loadConfig({
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.base,
        LLM_BATCH_THRESHOLD: '1000',
        LLM_CONCURRENCY: '4',
        LLM_DAILY_BUDGET_USD: '1000',
        ARXIV_HTML_BASE: `${server.base}/html/`,
        ARXIV_REQUEST_INTERVAL_MS: '0',
      }),
    });
  });

  const addPaper = async (arxivId: string) =>
    (
      await t.db
        .insert(papers)
        .values({
          arxivId,
          arxivVersion: 1,
          titleKey: `paper ${arxivId}`,
          title: `Paper ${arxivId}: group relative policy optimization`,
          abstract: 'We study GRPO. We clip per sequence. Accuracy improves on AIME.',
          rulesFamily: true,
          rulesScore: 0.9,
          newsAt: new Date('2026-11-21T06:00:00Z'),
        })
        .returning()
    )[0]!;

  it('stores only summaries that fit the schema; each shown without a ping; no paper harmed', async () => {
    const answers = hostileSummaryAnswers(validSummary('x'));
    const rows = [];
    for (const [i, a] of answers.entries()) {
      const p = await addPaper(`2611.5${String(i).padStart(4, '0')}`);
      fake.script(p.arxivId!, [a.step, a.step, a.step, a.step] as Step[]);
      rows.push(p);
    }
    const stats = await summarizePending(deps);
    expect(stats).toMatchObject({ pending: answers.length });
    for (const [i, a] of answers.entries()) {
      const p = rows[i]!;
      const [s] = await t.db.select().from(summaries).where(eq(summaries.paperId, p.id));
      const reply = await runCommand(paper, commandInput('show', { id: p.arxivId! }), deps);
      expectAnswered(reply, a.label);
      expectSafe(renderInteraction(reply), a.label);
      const [after] = await t.db.select().from(papers).where(eq(papers.id, p.id));
      expect(after!.title, a.label).toBe(p.title);
      record('LLM answers (summaries)', a.label, s?.status === 'ok' ? 'stored, shown safely' : 'refused, not stored');
    }
  });

  it('reads each hostile arXiv HTML page or records why not, without failing the run', async () => {
    const rows = [];
    for (let i = 0; i < pages.length; i++) rows.push(await addPaper(`2611.6${String(i).padStart(4, '0')}`));
    const http = { ...httpOptions(deps).arxivHttp, sleep: async () => {} };
    const stats = await fetchTexts(deps, { limit: 100, arxivHttp: http, papers: rows });
    expect(Number(stats.ok) + Number(stats.noHtml) + Number(stats.failed)).toBe(pages.length);
    for (const [i, p] of rows.entries()) {
      const [text] = await t.db.select().from(paperTexts).where(eq(paperTexts.paperId, p.id));
      expect(text, pages[i]!.label).toBeDefined();
      expect(JSON.stringify(text!.sections ?? []), pages[i]!.label).not.toMatch(/<script|\u202e|\u0000/); // eslint-disable-line no-control-regex
      const reply = await runCommand(paper, commandInput('show', { id: p.arxivId! }), deps);
      expectAnswered(reply, pages[i]!.label);
      expectSafe(renderInteraction(reply), pages[i]!.label);
      record('arXiv HTML full texts', pages[i]!.label, `${text!.status}${text!.reason ? `: ${text!.reason}` : ''}`);
    }
  });

  it('tried at least 300 hostile inputs', () => {
    expect(attempts.length).toBeGreaterThanOrEqual(300);
  });
});
