import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { toggleVote } from '../../db/queries/queue.ts';
import { pendingPapers, saveSummary } from '../../db/queries/summaries.ts';
import { addSubscription, saveSubscriber } from '../../db/queries/subscriptions.ts';
import { papers, paperVersions, summaries, versionNotices, type Paper } from '../../db/schema.ts';
import { loadPaperCard } from '../../commands/paper.ts';
import type { JobDeps } from '../../jobs/index.ts';
import { notifySubscribersJob } from '../../jobs/notify-subscribers.ts';
import { pollFeedsJob } from '../../jobs/poll-feeds.ts';
import { buildDeps } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import type { Notifier } from '../../src/core/delivery/notifier.ts';
import type { Reply } from '../../src/core/reply.ts';
import { htmlFixture, PAPER_HTML } from '../helpers/arxiv-html.ts';
import { createTestDb } from '../helpers/db.ts';
import { apiFeed, rssFeed, type RssItem } from '../helpers/feed-builders.ts';
import { startFeedServer, type FeedServer, feedEnv } from '../helpers/feed-server.ts';

const ID = '2611.04242';
const OTHER = '2611.20002';
const NEWS = '2611.30003';
const LATE = '2611.40004';
const TITLE = 'Balanced Clipping for Group Relative Policy Optimization';
const V1 =
  'Group Relative Policy Optimization (GRPO) clips token importance ratios symmetrically. We show that an asymmetric, balanced clip range keeps policy entropy from collapsing in long chain-of-thought training, and we train Qwen2.5-Math-7B to 44.1% on AIME 2024 without a KL penalty.';
const V2 = V1.replace('on AIME 2024', 'on AIME 2024 and 30.2% on AIME25');
const V3 = V2.replace('symmetrically', 'symetrically');
/** The fixture states 16 responses per prompt; v1 of the paper said 8. */
const HTML_V1 = htmlFixture(PAPER_HTML)
  .replace('sample 16 responses', 'sample 8 responses')
  .replace('align_left">16</td>', 'align_left">8</td>');

describe('a new version of a stored GRPO-family paper', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let server: FeedServer;
  let now = new Date('2026-11-16T06:15:00Z');
  let items: RssItem[] = [];
  const sent: { kind: string; target: string; reply: Reply; nonce: string }[] = [];
  const notifier: Notifier = {
    async dm(userId, reply, { nonce }) {
      sent.push({ kind: 'dm', target: userId, reply, nonce });
      return { messageId: String(sent.length) };
    },
    async post(channelId, reply, { nonce }) {
      sent.push({ kind: 'post', target: channelId, reply, nonce });
      return { messageId: String(sent.length) };
    },
  };
  /** The version notes sent (the family follower also hears of new papers, as before). */
  const versionNotes = () => sent.filter((s) => s.reply.content?.startsWith('New version of'));
  const deps = (): JobDeps =>
    buildDeps({
      db: t.db,
      sql: t.sql,
      log: pino({ level: 'silent' }),
      now: () => now,
      config: loadConfig({
        ...feedEnv(server.base),
        ARXIV_HTML_BASE: `${server.base}/html/`,
        // One text a poll: a new version's text must come before the day's new papers'.
        TEXT_FETCH_PER_POLL: '1',
      }),
    });
  const paper = async (arxivId = ID): Promise<Paper> =>
    (await t.db.select().from(papers).where(eq(papers.arxivId, arxivId)))[0]!;
  /** One day of the daily poll (feeds, full texts, version comparison), then the notify job. */
  const day = async (date: string, today: RssItem[]) => {
    now = new Date(`${date}T06:15:00Z`);
    items = today;
    await pollFeedsJob.run(deps());
    await notifySubscribersJob({ notifier }).run(deps());
  };
  const card = async () => {
    const reply = await loadPaperCard(deps(), await paper());
    return reply.embeds![0]!.fields!.find((f) => f.name === 'Latest version')?.value;
  };

  beforeAll(async () => {
    t = await createTestDb();
    server = await startFeedServer((url) => {
      if (url.pathname === '/rss/cs.LG') return { body: rssFeed('cs.LG', now.toISOString().slice(0, 10), items) };
      if (url.pathname === '/api/query') return { body: apiFeed([]) };
      if (url.pathname === '/api/daily_papers') return { body: '[]' };
      if (url.pathname === `/html/${ID}v1` || url.pathname === `/html/${LATE}v1`) return { body: HTML_V1 };
      if (url.pathname === `/html/${LATE}v2`) return { body: htmlFixture(PAPER_HTML) };
      if (url.pathname === `/html/${ID}v2` || url.pathname === `/html/${ID}v3`)
        return { body: htmlFixture(PAPER_HTML) };
      return undefined;
    });
  });

  it('stores v1 and its text; followers of its family, a voter and others subscribe', async () => {
    await day('2026-11-16', [
      { id: ID, title: TITLE, abstract: V1 },
      { id: OTHER, title: 'Convolutional Networks for Image Segmentation' },
    ]);
    const p = await paper();
    expect(p.grpoFamily).toBe(true);
    expect(p.families).toContain('GRPO');
    expect((await paper(OTHER)).grpoFamily).toBe(false);
    const follow = (userId: string, kind: string, value: string) =>
      addSubscription(t.db, { userId, guildId: 'g1', kind, value, exclude: null }, now);
    await follow('ann', 'family', 'grpo');
    await follow('cat', 'keyword', 'segmentation');
    await follow('dan', 'family', 'GRPO');
    await saveSubscriber(t.db, 'dan', 'g1', { mode: 'off' }, now);
    await toggleVote(t.db, { guildId: 'g1', paperId: p.id }, 'bob', now);
    await t.db.insert(summaries).values({
      paperId: p.id,
      lang: 'en',
      promptVersion: 'test-prompt',
      status: 'ok',
      basis: 'full-text',
      content: { tldr: 'v1 trains with G=8.' },
    });
    expect(await card()).toBeUndefined();
  });

  it('a replace with changed settings and a new benchmark: the note on the card, one notice each to the family follower and the voter', async () => {
    await day('2026-11-17', [
      { id: ID, v: 2, type: 'replace', title: TITLE, abstract: V2 },
      { id: OTHER, v: 2, type: 'replace', title: 'Convolutional Networks for Image Segmentation (revised)' },
      { id: NEWS, title: 'GRPO with Adaptive Groups', abstract: `${V1} We also adapt the group size.` },
    ]);
    expect((await paper(NEWS)).grpoFamily).toBe(true);
    expect(await card()).toBe('v2 (2026-11-17): group size 8 -> 16; new AIME25 results');
    expect(
      versionNotes()
        .map((s) => `${s.kind}:${s.target}`)
        .sort(),
    ).toEqual(['dm:ann', 'dm:bob']);
    expect(versionNotes().find((s) => s.target === 'ann')!.reply.content).toBe(
      `New version of [${TITLE}](<https://arxiv.org/abs/${ID}>) (you follow its family): v2 (2026-11-17): group size 8 -> 16; new AIME25 results`,
    );
    expect(versionNotes().find((s) => s.target === 'bob')!.reply.content).toContain(
      'you voted for it in the reading-group queue',
    );

    // Every version's text, settings and summary are kept; the summary is written again.
    const p = await paper();
    const versions = await t.db
      .select()
      .from(paperVersions)
      .where(eq(paperVersions.paperId, p.id))
      .orderBy(paperVersions.version);
    expect(versions.map((v) => [v.version, v.abstract === V1, v.meaningful])).toEqual([
      [1, true, null],
      [2, false, true],
    ]);
    expect(versions[0]!.settings!.find((s) => s.key === 'group_size')!.value).toBe('8');
    expect(versions[1]!.settings!.find((s) => s.key === 'group_size')!.value).toBe('16');
    expect(versions[0]!.summary).toEqual({ 'en:test-prompt': { tldr: 'v1 trains with G=8.' } });
    const pending = async () =>
      (await pendingPapers(t.db, { lang: 'en', promptVersion: 'test-prompt', limit: 10, now }))
        .filter((r) => r.paper.arxivId === ID)
        .map((r) => r.upgrade);
    expect(await pending()).toEqual([true]);
    const rewritten = { tldr: 'v2 trains with G=16.' };
    const summary = { paperId: p.id, lang: 'en', promptVersion: 'test-prompt', status: 'ok', createdAt: now };
    expect(await saveSummary(t.db, { ...summary, basis: 'full-text', content: rewritten })).toBe(true);
    expect(await pending()).toEqual([]);
    const [current] = await t.db.select().from(summaries).where(eq(summaries.paperId, p.id));
    expect(current).toMatchObject({ basis: 'full-text', content: rewritten });

    // A replace of a paper outside the family stores no versions.
    const other = await paper(OTHER);
    expect(other.arxivVersion).toBe(2);
    expect(await t.db.select().from(paperVersions).where(eq(paperVersions.paperId, other.id))).toEqual([]);
  });

  it('tells nobody twice: the next runs send nothing more', async () => {
    await notifySubscribersJob({ notifier }).run(deps());
    await day('2026-11-17', [{ id: ID, v: 2, type: 'replace', title: TITLE, abstract: V2 }]);
    expect(versionNotes()).toHaveLength(2);
    const rows = await t.db.select().from(versionNotices);
    expect(rows.map((r) => [r.userId, r.version, r.status])).toEqual([
      ['ann', 2, 'sent'],
      ['bob', 2, 'sent'],
    ]);
  });

  it('a wording-only replace: "wording only" on the card and no notice', async () => {
    await day('2026-11-18', [{ id: ID, v: 3, type: 'replace', title: TITLE, abstract: V3 }]);
    expect(await card()).toBe('v3: wording only');
    expect(versionNotes()).toHaveLength(2);
    const p = await paper();
    const [v3] = await t.db
      .select()
      .from(paperVersions)
      .where(and(eq(paperVersions.paperId, p.id), eq(paperVersions.version, 3)));
    expect(v3).toMatchObject({ meaningful: false, changes: [] });
  });

  it("reads the replaced version's text when it never was, so its settings are compared too", async () => {
    await t.db.insert(papers).values({
      arxivId: LATE,
      arxivVersion: 1,
      titleKey: 'late',
      title: 'Late GRPO',
      abstract: V1,
      rulesFamily: true,
      families: ['GRPO'],
    });
    server.requests.length = 0;
    await day('2026-11-19', [{ id: LATE, v: 2, type: 'replace', title: 'Late GRPO', abstract: V1 }]);
    expect(server.requests.map((r) => r.path).filter((p) => p.startsWith('/html/'))).toEqual([
      `/html/${LATE}v2`,
      `/html/${LATE}v1`,
    ]);
    const [late] = await t.db
      .select()
      .from(paperVersions)
      .where(and(eq(paperVersions.paperId, (await paper(LATE)).id), eq(paperVersions.version, 2)));
    expect(late!.note).toBe('v2 (2026-11-19): group size 8 -> 16');
    expect(versionNotes().filter((s) => s.reply.content!.includes('Late GRPO'))).toHaveLength(1);
  });
});
