/** Builders and a limits checker shared by the digest tests and the bench. */
import { LIMITS, type Embed } from '../../../../src/core/reply.ts';
import type {
  DigestChannel,
  DigestInput,
  DigestMessage,
  DigestPaper,
  DigestSummary,
} from '../../../../src/core/digest/types.ts';

export const NOW = new Date('2026-11-21T09:00:00Z');

export function paper(id: number, over: Partial<DigestPaper> = {}): DigestPaper {
  return {
    id,
    arxivId: `2611.${String(10000 + id)}`,
    arxivVersion: 1,
    title: `Paper ${id}: Group Relative Policy Optimization revisited`,
    titleZh: null,
    authors: ['A. Author', 'B. Author'],
    authorCount: 2,
    organization: null,
    grpoFamily: true,
    familyScore: 0.8,
    families: ['GRPO'],
    topics: ['algorithm'],
    hfUpvotes: null,
    githubStars: null,
    githubUrl: null,
    votes: 0,
    newsAt: new Date('2026-11-21T06:00:00Z'),
    ...over,
  };
}

export function channel(over: Partial<DigestChannel> = {}): DigestChannel {
  return {
    channelId: '100',
    language: 'en',
    cadence: 'daily',
    topics: [],
    maxPapers: 10,
    minScore: 0,
    quietDay: 'nothing',
    pingRoleId: null,
    threadPerPaper: false,
    ...over,
  };
}

export function input(
  papers: DigestPaper[],
  over: Partial<DigestInput> = {},
  summaries: [number, DigestSummary][] = [],
): DigestInput {
  return {
    channel: channel(),
    date: '2026-11-21',
    now: NOW,
    papers,
    since: new Date('2026-11-20T09:00:00Z'),
    summaries: new Map(summaries),
    feeds: [
      {
        feed: 'arxiv-rss:cs.LG',
        health: 'ok',
        healthDetail: null,
        lastNewCount: 412,
        lastFamilyCount: 7,
        lastSuccessAt: new Date('2026-11-21T06:15:00Z'),
      },
    ],
    ...over,
  };
}

export function embedSize(e: Embed): number {
  return (
    (e.title?.length ?? 0) +
    (e.description?.length ?? 0) +
    (e.footer?.length ?? 0) +
    (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

/** Every way a message could break one of Discord's limits, as readable strings (empty = fine). */
export function limitViolations(messages: DigestMessage[]): string[] {
  const bad: string[] = [];
  messages.forEach((m, i) => {
    const r = m.reply;
    const embeds = r.embeds ?? [];
    const at = (s: string) => bad.push(`message ${i + 1}: ${s}`);
    if ((r.content ?? '').length > LIMITS.content) at(`content ${r.content!.length}`);
    if (!r.content && embeds.length === 0) at('empty message');
    if (embeds.length > LIMITS.embedsPerMessage) at(`${embeds.length} embeds`);
    const total = embeds.reduce((n, e) => n + embedSize(e), 0);
    if (total > LIMITS.embedTotal) at(`embed total ${total}`);
    for (const e of embeds) {
      if ((e.title ?? '').length > LIMITS.title) at(`title ${e.title!.length}`);
      if ((e.description ?? '').length > LIMITS.description) at(`description ${e.description!.length}`);
      if ((e.footer ?? '').length > LIMITS.footer) at(`footer ${e.footer!.length}`);
      if ((e.fields ?? []).length > LIMITS.fields) at(`${e.fields!.length} fields`);
      for (const f of e.fields ?? []) {
        if (f.name.length > LIMITS.fieldName || f.name.length === 0) at(`field name ${f.name.length}`);
        if (f.value.length > LIMITS.fieldValue || f.value.length === 0) at(`field value ${f.value.length}`);
      }
    }
    const rows = r.components ?? [];
    if (rows.length > LIMITS.rows) at(`${rows.length} rows`);
    for (const row of rows) {
      if (row.length > LIMITS.buttonsPerRow) at(`${row.length} buttons in a row`);
      for (const b of row) {
        if (b.label.length > LIMITS.buttonLabel) at(`button label ${b.label.length}`);
        if (b.kind === 'action' && b.customId.length > 100) at(`custom id ${b.customId.length}`);
        if (b.kind === 'link' && b.url.length > 512) at(`button url ${b.url.length}`);
      }
    }
    if (m.paperIds.length !== embeds.length) at(`${m.paperIds.length} paper ids for ${embeds.length} embeds`);
  });
  return bad;
}

/** Every piece of text a message shows (content, embeds, button labels). */
export function allText(m: DigestMessage): string[] {
  const e = (m.reply.embeds ?? []).flatMap((x) => [
    x.title ?? '',
    x.description ?? '',
    x.footer ?? '',
    ...(x.fields ?? []).flatMap((f) => [f.name, f.value]),
  ]);
  return [m.reply.content ?? '', ...e, ...(m.reply.components ?? []).flat().map((b) => b.label)];
}

export const LIVE_MENTION = /@everyone|@here|<@!?\d+>|<@&\d+>|<#\d+>/i;
