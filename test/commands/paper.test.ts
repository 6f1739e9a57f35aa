import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { papers, summaries } from '../../db/schema.ts';
import { PROMPT_VERSION } from '../../src/services/summarize/schema.ts';
import { paper } from '../../commands/paper.ts';
import { commands } from '../../commands/index.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { runCommand, GENERIC_ERROR } from '../../src/core/dispatch.ts';
import type { CommandInput } from '../../src/core/command.ts';
import { useSeededDb } from '../helpers/seeded.ts';
import { replyText } from './helpers.ts';

const input = (subcommand: string, options: CommandInput['options']): CommandInput => ({
  user: { id: 'u1', name: 'tester' },
  guildId: 'g1',
  channelId: 'c1',
  canManage: false,
  subcommand,
  options,
});

describe('/paper', () => {
  const seeded = useSeededDb();

  it('shows a paper card with links, the Chinese title and its citing papers', async () => {
    const reply = await runCommand(paper, input('show', { id: '2507.18071' }), seeded().deps);
    const embed = reply.embeds![0]!;
    expect(embed.title).toBe('Group Sequence Policy Optimization');
    expect(embed.url).toBe('https://arxiv.org/abs/2507.18071');
    expect(embed.description).toContain('群组序列策略优化');
    // No source dated GSPO: its arXiv id tells the month.
    expect(embed.description).toContain('arXiv 2507.18071 · 2025-07');
    expect(embed.fields!.find((f) => f.name.startsWith('Cited by 50 papers'))).toBeDefined();
    const links = reply.components![0]!.map((b) => b.kind === 'link' && b.url);
    expect(links).toEqual(
      expect.arrayContaining(['https://arxiv.org/pdf/2507.18071', 'https://huggingface.co/papers/2507.18071']),
    );
    expect(reply.ephemeral).toBeFalsy();
  });

  it('accepts an arXiv URL with a version, an HF URL and a title for the same paper', async () => {
    for (const id of [
      'https://arxiv.org/abs/2507.18071v2',
      'https://huggingface.co/papers/2507.18071',
      'group sequence policy optimization',
    ]) {
      const reply = await runCommand(paper, input('show', { id }), seeded().deps);
      expect(reply.embeds?.[0]?.title, id).toBe('Group Sequence Policy Optimization');
    }
  });

  it("takes a family's name for its defining paper, and says when that paper is not stored", async () => {
    for (const id of ['GSPO', 'gspo']) {
      const reply = await runCommand(paper, input('show', { id }), seeded().deps);
      expect(reply.embeds?.[0]?.title, id).toBe('Group Sequence Policy Optimization');
    }
    const missing = await runCommand(paper, input('show', { id: 'DAPO' }), seeded().deps);
    expect(missing.ephemeral).toBe(true);
    expect(missing.content).toContain("DAPO's defining paper (arXiv 2503.14476) is not in the corpus yet");
    expect(missing.content).toContain('/family show name:DAPO');
  });

  it('shows the repaired Chinese note of a paper from the notes files', async () => {
    const reply = await runCommand(paper, input('show', { id: '2504.00883' }), seeded().deps);
    const names = reply.embeds![0]!.fields!.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining(['论文解读', '背景痛点 / 本文动机', '核心方法', '实验结果', '可借鉴之处']),
    );
    expect(reply.components![0]!.find((b) => b.label === 'PDF')).toMatchObject({
      url: 'https://arxiv.org/pdf/2504.00883v2',
    });
  });

  it('shows the LLM summary on the card when one exists (TL;DR with its model, and the change vs GRPO)', async () => {
    const { db } = seeded();
    const [p] = await db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, '2504.00883'));
    const before = await runCommand(paper, input('show', { id: '2504.00883' }), seeded().deps);
    expect(before.embeds![0]!.fields!.some((f) => f.name.startsWith('TL;DR'))).toBe(false);
    await db.insert(summaries).values({
      paperId: p!.id,
      lang: 'en',
      promptVersion: PROMPT_VERSION,
      status: 'ok',
      model: 'claude-haiku-4-5',
      content: {
        tldr: 'Improves GRPO with $\\epsilon$-clipping.',
        motivation: 'm',
        method: ['a'],
        results: 'r',
        takeaways: 't',
        grpo_delta: {
          advantage_normalization: 'unchanged',
          clipping: 'changed: asymmetric',
          kl_term: 'changed: removed',
          loss_aggregation: 'unchanged',
          importance_sampling_level: 'unchanged',
          sampling_filtering: 'unchanged',
          reward_type: 'unchanged',
        },
      },
    });
    const card = (await runCommand(paper, input('show', { id: '2504.00883' }), seeded().deps)).embeds![0]!;
    expect(card.fields![0]).toEqual({
      name: 'TL;DR (LLM summary, claude-haiku-4-5)',
      value: 'Improves GRPO with ε-clipping.',
    });
    expect(card.fields![1]).toEqual({
      name: 'Change vs GRPO',
      value: 'clipping: changed: asymmetric · KL: changed: removed',
    });
    await db.delete(summaries).where(eq(summaries.paperId, p!.id));
  });

  it('shows a month-only date as the month, never as the 1st', async () => {
    const card = await runCommand(paper, input('show', { id: '2509.24923' }), seeded().deps);
    expect(card.embeds![0]!.description).toMatch(/arXiv 2509\.24923v1 · 2025-09\n/);
  });

  it('keeps every card within Discord limits', async () => {
    for (const id of ['2507.18071', '2504.00883', '2503.21614']) {
      const e = (await runCommand(paper, input('show', { id }), seeded().deps)).embeds![0]!;
      const total =
        (e.title?.length ?? 0) +
        (e.description?.length ?? 0) +
        (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
      expect(total).toBeLessThanOrEqual(6000);
      expect(e.description!.length).toBeLessThanOrEqual(4096);
      for (const f of e.fields ?? []) expect(f.value.length).toBeLessThanOrEqual(1024);
    }
  });

  it('echoes what a member typed in a refusal with its pings defused, and in search results (red team)', async () => {
    const typed = 'zzqq @everyone <@&400000000000000005> <@123456789012345678>';
    const refusal = await runCommand(paper, input('show', { id: typed }), seeded().deps);
    expect(refusal.content).toContain(
      'No paper titled "zzqq @\u200beveryone <\u200b@&400000000000000005> <\u200b@123456789012345678>"',
    );
    const list = await runCommand(paper, input('search', { query: 'GRPO @here' }), seeded().deps);
    expect(list.embeds![0]!.title).toBe('Papers for "GRPO @\u200bhere"');
  });

  it('answers an unknown id, a malformed id and an empty or overlong query with a short ephemeral message', async () => {
    const cases: [string, CommandInput['options'], RegExp][] = [
      ['show', { id: '2507.99999' }, /not in the corpus yet/],
      ['show', { id: '9999.99999' }, /not a valid arXiv id/],
      ['show', { id: 'no paper has this title at all qqq' }, /No paper titled/],
      ['search', { query: '' }, /needs `query`/],
      ['search', { query: 'x'.repeat(500) }, /too long/],
      [
        'search',
        { query: '-entropy' },
        /only says what to leave out\. Add a word to search for, e\.g\. query:grpo -entropy/,
      ],
    ];
    for (const [sub, options, message] of cases) {
      const reply = await runCommand(paper, input(sub, options), seeded().deps);
      expect(reply.ephemeral).toBe(true);
      expect(reply.content).toMatch(message);
      expect(reply.content).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it('lists the latest GRPO-family papers newest first, every paper only when asked', async () => {
    // The newest paper of all is a DPO paper from a poll: not family, so not listed by default.
    const [dpo] = await seeded()
      .db.insert(papers)
      .values({
        arxivId: '2611.09999',
        title: 'Calibrated DPO for chat',
        titleKey: 'calibrateddpoforchat',
        rulesFamily: false,
        publishedOn: '2026-11-20',
      })
      .returning();
    const reply = await runCommand(paper, input('latest', { count: 10 }), seeded().deps);
    expect(reply.embeds![0]!.title).toBe('The latest 10 GRPO-family papers');
    const lines = reply.embeds![0]!.description!.split('\n\n');
    expect(lines).toHaveLength(10);
    const dates = lines.map((l) => /(\d{4}-\d{2})/.exec(l)?.[1] ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
    // Titles are shown as text: their markdown characters escaped.
    const titles = lines.map((l) => /^\*\*\d+\. \[(.+?)\]\(/.exec(l)![1]!.replace(/\\(.)/g, '$1'));
    const rows = await seeded()
      .db.select({ grpoFamily: papers.grpoFamily })
      .from(papers)
      .where(inArray(papers.title, titles));
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.every((r) => r.grpoFamily)).toBe(true);
    expect(replyText(reply)).not.toContain('Calibrated DPO');
    const everything = await runCommand(paper, input('latest', { count: 1, all: true }), seeded().deps);
    expect(everything.embeds![0]!.title).toBe('The latest paper');
    expect(replyText(everything)).toContain('Calibrated DPO');
    await seeded().db.delete(papers).where(eq(papers.id, dpo!.id));
  });

  it('suggests papers for autocomplete, at most 25, values within 100 characters', async () => {
    const choices = await paper.autocomplete!(input('show', {}), { name: 'id', value: 'group seq' }, seeded().deps);
    expect(choices[0]).toEqual({
      name: expect.stringContaining('Group Sequence Policy Optimization'),
      value: '2507.18071',
    });
    expect(choices.length).toBeLessThanOrEqual(25);
    for (const c of choices) expect(c.value.length).toBeLessThanOrEqual(100);
  });

  it('logs a bug and answers with a generic message instead of crashing', async () => {
    const broken = { ...seeded().deps, db: undefined as never };
    const reply = await runCommand(paper, input('latest', {}), broken);
    expect(reply).toEqual({ content: GENERIC_ERROR, ephemeral: true });
  });
});

describe('console', () => {
  const seeded = useSeededDb();

  it('renders embeds as titled blocks and buttons as labelled actions', async () => {
    const text = await answerLine('/paper show id:2507.18071', seeded().deps);
    expect(text).toContain('■ Group Sequence Policy Optimization');
    expect(text).toContain('[PDF ↗ https://arxiv.org/pdf/2507.18071]');
  });

  it('answers /help with every command', async () => {
    const text = await answerLine('/help', seeded().deps);
    for (const c of commands) expect(text).toContain(`/${c.definition.name}`);
  });

  it('explains a mistyped line instead of failing', async () => {
    expect(await answerLine('/paper serch query:x', seeded().deps)).toMatch(
      /has no subcommand `serch`. Did you mean \/paper search\? Subcommands: search, show, cite, latest/,
    );
  });
});
