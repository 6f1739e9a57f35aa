import { beforeAll, describe, expect, it } from 'vitest';
import { compare, splitRefs } from '../../commands/compare.ts';
import { paper } from '../../commands/paper.ts';
import { papers, paperTexts, summaries } from '../../db/schema.ts';
import { CUSTOM_IDS } from '../../src/core/custom-id.ts';
import { runCommand } from '../../src/core/dispatch.ts';
import type { Reply } from '../../src/core/reply.ts';
import { PROMPT_VERSION } from '../../src/services/summarize/schema.ts';
import { createTestDb } from '../helpers/db.ts';
import { validSummary } from '../helpers/fake-anthropic.ts';
import { commandDeps, commandInput, replyText } from './helpers.ts';

const NOW = new Date('2026-11-23T10:00:00Z');
const QUOTE = 'We decouple the two clip bounds and set $\\epsilon_{low}=0.2$ and $\\epsilon_{high}=0.28$.';

describe("/compare and the paper card's training", () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let deps: ReturnType<typeof commandDeps>;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestDb();
    deps = commandDeps(t.db, () => NOW);
    const rows = await t.db
      .insert(papers)
      .values([
        {
          arxivId: '2611.04242',
          arxivVersion: 2,
          titleKey: 'a',
          title: 'Balanced Clipping for GRPO',
          abstract: 'x',
          rulesFamily: true,
          rulesScore: 0.9,
          families: ['DAPO'],
        },
        {
          arxivId: '2611.05555',
          arxivVersion: 1,
          titleKey: 'b',
          title: 'Sequence Ratios @everyone',
          abstract: 'y',
          rulesFamily: true,
          rulesScore: 0.9,
          families: ['GSPO'],
        },
        {
          arxivId: '2611.06666',
          arxivVersion: 1,
          titleKey: 'c',
          title: 'Not read yet',
          abstract: 'z',
          rulesFamily: true,
          rulesScore: 0.9,
        },
      ])
      .returning();
    for (const r of rows) ids[r.arxivId!] = r.id;
    // The first paper's settings come from the rules; the second's from its full-text LLM summary.
    await t.db.insert(paperTexts).values({
      paperId: ids['2611.04242']!,
      version: 2,
      status: 'ok',
      url: 'http://x',
      fetchedAt: NOW,
      sections: [],
      rulesSettings: [
        { key: 'group_size', value: '16', evidence: 'Rollouts per prompt ($G$) | 16' },
        { key: 'clip_eps_high', value: '0.28', evidence: QUOTE },
        { key: 'kl_coef', value: '0', evidence: 'KL coefficient | 0' },
      ],
    });
    await t.db.insert(summaries).values({
      paperId: ids['2611.05555']!,
      lang: 'en',
      promptVersion: PROMPT_VERSION,
      status: 'ok',
      model: 'claude-haiku-4-5',
      basis: 'full-text',
      createdAt: NOW,
      content: {
        ...validSummary('b'),
        settings: [
          { key: 'is_level', value: 'sequence', evidence: 'we use a sequence-level importance ratio' },
          { key: 'group_size', value: '8', evidence: 'eight rollouts per prompt @everyone' },
        ],
      },
    });
  });

  const run = (command: typeof compare, sub: string | undefined, options: Record<string, string>) =>
    runCommand(command, commandInput(sub, options), deps);
  const press = async (customId: string): Promise<Reply> =>
    paper.component!({ user: { id: 'u', name: 'u' }, canManage: false, customId }, deps);

  it('splits what a user typed into papers', () => {
    expect(splitRefs('2611.04242  2611.05555,https://arxiv.org/abs/2611.06666')).toEqual([
      '2611.04242',
      '2611.05555',
      'https://arxiv.org/abs/2611.06666',
    ]);
    expect(splitRefs('Balanced Clipping for GRPO; Sequence Ratios')).toEqual([
      'Balanced Clipping for GRPO',
      'Sequence Ratios',
    ]);
  });

  it('puts 2-4 papers side by side, a line per paper in each row, with an Evidence button per paper', async () => {
    const r = await run(compare, undefined, { papers: '2611.04242 2611.05555 2611.06666' });
    const embed = r.embeds![0]!;
    expect(embed.title).toBe('Comparing 3 papers');
    expect(embed.description).toContain(
      '**B** `2611.05555` Sequence Ratios @\u200beveryone · *settings read by the LLM*',
    );
    expect(embed.description).toContain('**C** `2611.06666` Not read yet · *no full text read yet*');
    const field = (name: string) => embed.fields!.find((f) => f.name === name)?.value;
    expect(field('Group size')).toBe('**A** 16 · **B** 8 · **C** —');
    expect(field('Clip ε high')).toBe('**A** 0.28 · **B** — · **C** —');
    expect(field('Importance sampling')).toBe('**A** — · **B** sequence · **C** —');
    expect(field('Learning rate')).toBeUndefined(); // nobody states it
    expect(field('Δ clipping')).toBe('**A** —\n**B** per-sequence clipping\n**C** —'); // long cells: a line each
    expect(r.components![0]!.map((b) => b.label)).toEqual(['Evidence A', 'Evidence B', 'Evidence C']);

    const evidence = await press(CUSTOM_IDS.paperEvidence.encode({ paper: ids['2611.05555']! }));
    expect(evidence.ephemeral).toBe(true);
    expect(evidence.content).toContain('**Group size: 8**\n> eight rollouts per prompt @\u200beveryone');
    expect((await press(CUSTOM_IDS.paperEvidence.encode({ paper: ids['2611.06666']! }))).content).toContain(
      'No training settings are known',
    );
  });

  it('refuses one paper, five papers and the same paper twice, saying what to type', async () => {
    for (const papersTyped of ['2611.04242', '1 2 3 4 5', '2611.04242 2611.04242v2']) {
      const r = await run(compare, undefined, { papers: papersTyped });
      expect(r.ephemeral).toBe(true);
      expect(replyText(r)).toMatch(/2 to 4/);
    }
    expect(replyText(await run(compare, undefined, { papers: '2611.04242 2612.09999' }))).toContain(
      'not in the corpus',
    );
  });

  it('says what to run when no paper compared has stated settings yet (a fresh install without a key)', async () => {
    await t.db.insert(papers).values({
      arxivId: '2611.07777',
      arxivVersion: 1,
      title: 'Also not read yet',
      titleKey: 'alsonotreadyet',
      rulesFamily: true,
      rulesScore: 0.9,
    });
    const r = await run(compare, undefined, { papers: '2611.06666 2611.07777' });
    expect(r.embeds![0]!.description).toContain('`grpo-digest fetch-text --paper <id>`');
  });

  it('takes a family name for its defining paper, and says when that paper is not stored', async () => {
    await t.db.insert(papers).values({
      arxivId: '2507.18071',
      arxivVersion: 1,
      titleKey: 'gspo',
      title: 'Group Sequence Policy Optimization',
      abstract: 'g',
      rulesFamily: true,
      rulesScore: 0.95,
      families: ['GSPO'],
    });
    const r = await run(compare, undefined, { papers: 'gspo 2611.04242' });
    expect(r.embeds![0]!.description).toContain('`2507.18071` Group Sequence Policy Optimization');
    const missing = await run(compare, undefined, { papers: 'DAPO 2611.04242' });
    expect(missing.ephemeral).toBe(true);
    expect(replyText(missing)).toContain("DAPO's defining paper (arXiv 2503.14476) is not in the corpus yet");
  });

  it("shows a family paper's settings and TRL recipe on its card, with Reproduce and Evidence buttons", async () => {
    const card = await run(paper, 'show', { id: '2611.04242' });
    const fields = card.embeds![0]!.fields!;
    expect(fields.find((f) => f.name === 'Training settings')!.value).toContain(
      'Group size: 16\nClip ε high: 0.28\nKL coefficient: 0',
    );
    const recipe = fields.find((f) => f.name.startsWith('Reproduce with TRL'))!.value;
    expect(recipe).toContain('num_generations=16,');
    expect(recipe).toContain('epsilon_high=0.28,');
    expect(recipe).toContain('beta=0.0,');
    expect(recipe).toContain('loss_type="dapo",'); // from DAPO's entry in families.ts
    expect(card.components![1]!.map((b) => b.label)).toEqual(['Reproduce', 'Evidence']);

    const full = await press(CUSTOM_IDS.paperRecipe.encode({ paper: ids['2611.04242']! }));
    expect(full.content).toContain('num_generations=16,');
    expect(full.content).toMatch(/# paper\n/);
    expect(full.content).toMatch(/mask_truncated_completions=True, +# DAPO recipe/);
    expect(full.content).toContain('**TRL cannot express:** dynamic sampling');
  });
});
