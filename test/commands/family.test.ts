import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { family, familyChoices } from '../../commands/family.ts';
import { findComponentOwner } from '../../commands/index.ts';
import { paper } from '../../commands/paper.ts';
import { familiesOfPaper } from '../../db/queries/families.ts';
import { citations, papers, queueItems, summaries, votes } from '../../db/schema.ts';
import { answerLine } from '../../src/adapters/console/run.ts';
import { runCommand, runComponent } from '../../src/core/dispatch.ts';
import type { CommandDeps, ComponentInput } from '../../src/core/command.ts';
import { FAMILY_CUES } from '../../src/core/papers/lexicon.ts';
import { FAMILIES, FAMILY_NAMES, NOT_COVERED, findFamily, familyRef } from '../../src/core/papers/families.ts';
import type { Button, Embed, Reply } from '../../src/core/reply.ts';
import { readPng } from '../helpers/png.ts';
import { useSeededDb } from '../helpers/seeded.ts';
import { commandInput, replyText } from './helpers.ts';

const actions = (r: Reply) =>
  (r.components ?? []).flat().filter((b): b is Extract<Button, { kind: 'action' }> => b.kind === 'action');
const press = (customId: string, guildId = 'g1'): ComponentInput => ({
  user: { id: 'u2', name: 'u2' },
  guildId,
  channelId: 'c1',
  canManage: false,
  customId,
});
const memberTitles = (r: Reply) => [...r.embeds![1]!.description!.matchAll(/^\d+\. \[(.+?)\]\(/gm)].map((m) => m[1]!);
const embedSize = (e: Embed) =>
  (e.title?.length ?? 0) +
  (e.description?.length ?? 0) +
  (e.footer?.length ?? 0) +
  (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);

describe('/family', () => {
  const seeded = useSeededDb();
  const show = (name: string, deps: CommandDeps = seeded().deps) =>
    runCommand(family, commandInput('show', { name }), deps);

  /** Titles of the stored papers that cite GSPO, with square brackets dropped as the list drops them. */
  async function gspoCiters(): Promise<string[]> {
    const rows = await seeded()
      .db.select({ title: papers.title })
      .from(citations)
      .innerJoin(papers, eq(papers.id, citations.citingPaperId))
      .where(sql`${citations.citedPaperId} = (select id from papers where arxiv_id = '2507.18071')`);
    return rows.map((r) => r.title.replace(/[[\]]/g, ''));
  }

  /** Titles of the stored GRPO-family papers tagged GRPO (by role), brackets dropped as the list drops them. */
  async function grpoMembers(): Promise<string[]> {
    const rows = await seeded()
      .db.select({ title: papers.title })
      .from(papers)
      .where(sql`'GRPO' = any(${papers.families}) and ${papers.grpoFamily}`);
    return rows.map((r) => r.title.replace(/[[\]]/g, ''));
  }

  it('shows GSPO: the description, its stored defining paper, its members and, apart, the papers citing it, and the TRL settings', async () => {
    const reply = await show('GSPO');
    const [about, members, citers] = reply.embeds!;
    expect(about!.title).toBe('GSPO');
    expect(about!.url).toBe('https://arxiv.org/abs/2507.18071');
    expect(about!.fields!.find((f) => f.name === 'Defining paper')!.value).toMatch(
      /\[Group Sequence Policy Optimization\]\(https:\/\/arxiv\.org\/abs\/2507\.18071\).*in the corpus/,
    );
    const trl = about!.fields!.find((f) => f.name.startsWith('Reproduce with TRL'))!;
    expect(trl.value).toContain('importance_sampling_level="sequence"');
    expect(trl.value).toMatch(/TRL >= 0\.20/);
    expect(trl.value).toMatch(/steps_per_generation > gradient_accumulation_steps or num_iterations > 1/);
    expect(about!.footer).toMatch(/^TRL settings checked against TRL 1\.9's documentation on 2026-11-23/);
    // The 50 seed papers citing GSPO (a depth-estimation paper among them) are not GSPO papers.
    expect(members!.title).toBe('Members of GSPO');
    expect(members!.description).toMatch(/besides its defining paper/);
    expect(citers!.title).toBe('Papers that cite the defining paper of GSPO (50)');
    const cited = [...citers!.description!.matchAll(/^• \[(.+?)\]\(/gm)].map((m) => m[1]!);
    expect(cited).toHaveLength(5);
    expect(await gspoCiters()).toEqual(expect.arrayContaining(cited));
    expect(citers!.footer).toMatch(/^Not members/);
  });

  it("pages through all of GRPO's members with Previous/Next buttons", async () => {
    const all = await grpoMembers();
    const pages = Math.ceil(all.length / 10);
    expect(pages).toBeGreaterThan(2);
    const first = await show('grpo');
    const [prev, next] = actions(first);
    expect(prev).toMatchObject({ disabled: true });
    expect(next!.customId).toBe('family:page:grpo:2');
    expect(findComponentOwner(next!.customId)).toBe(family);
    expect(first.embeds![1]!.title).toBe(`Members of GRPO (${all.length})`);

    const seen = new Set(memberTitles(first));
    let reply: Reply = first;
    for (let page = 2; page <= pages; page++) {
      const pressed = await runComponent(family, press(actions(reply)[1]!.customId), seeded().deps);
      expect(pressed.update).toBe(true);
      expect(pressed.embeds![1]!.footer).toMatch(new RegExp(`^Papers ${(page - 1) * 10 + 1}-\\d+ of ${all.length}`));
      for (const t of memberTitles(pressed)) seen.add(t);
      reply = pressed;
    }
    expect(actions(reply)[1]).toMatchObject({ disabled: true });
    // Every member once (titles are shown as text, so compare how many).
    expect(seen.size).toBe(all.length);

    // A page past the end (an old or hand-typed button) shows the last page.
    const past = await runComponent(family, press('family:page:grpo:99'), seeded().deps);
    expect(past.embeds![1]!.footer).toMatch(new RegExp(`page ${pages}/${pages}`));
    expect(past.content).toMatch(new RegExp(`^There is no page 99; this is page ${pages}, the last\\.`));
    expect(actions(past)[0]!.customId).toBe(`family:page:grpo:${pages - 1}`);
    for (const bad of ['family:page:grpo:x', 'family:page:nope:2', 'family:other']) {
      const r = await runComponent(family, press(bad), seeded().deps);
      expect(r.ephemeral).toBe(true);
      expect(r.content).toMatch(/Run \/family show again|No family called/);
    }
  });

  it('accepts names however they are typed, and refuses an unknown one with an ephemeral list of families', async () => {
    for (const [typed, name] of [
      ['dr grpo', 'Dr. GRPO'],
      ['Dr. GRPO', 'Dr. GRPO'],
      ['reinforce++', 'REINFORCE++'],
      ['flow-grpo', 'Flow-GRPO'],
    ] as const) {
      expect((await show(typed)).embeds![0]!.title, typed).toBe(name);
    }
    const reply = await show('PPO-Ultra');
    expect(reply.ephemeral).toBe(true);
    expect(reply.content).toMatch(/^No family called "PPO-Ultra"\. Known families: GRPO, DAPO, Dr\. GRPO, GSPO/);
  });

  it('says when nothing builds on a family yet, with a defining paper that is not stored', async () => {
    const reply = await show('VinePPO');
    expect(reply.embeds![0]!.fields![0]!.value).toMatch(/2410\.01679.*not in the corpus/);
    expect(reply.embeds![1]!.description).toMatch(/No paper in the corpus besides its defining paper/);
    expect(reply.components).toBeUndefined();
    expect(replyText(reply)).toMatch(/Reproduce with TRL: not supported/);
  });

  it("shows this server's reading-group votes and HF upvotes next to each paper", async () => {
    const { db, deps } = seeded();
    const firstTitle = memberTitles(await show('GRPO'))[0]!;
    const [p] = await db.select().from(papers).where(eq(papers.title, firstTitle));
    await db.update(papers).set({ hfUpvotes: 42 }).where(eq(papers.id, p!.id));
    const [item] = await db.insert(queueItems).values({ guildId: 'g1', paperId: p!.id, nominatedBy: 'u1' }).returning();
    await db.insert(votes).values([
      { queueItemId: item!.id, userId: 'u1' },
      { queueItemId: item!.id, userId: 'u2' },
    ]);

    const line = (r: Reply) => r.embeds![1]!.description!.split('\n')[0]!;
    expect(line(await show('GRPO'))).toMatch(/🗳 2 · ▲ 42 · named$/);
    const elsewhere = await runCommand(family, commandInput('show', { name: 'GRPO' }, { guildId: 'g2' }), deps);
    expect(line(elsewhere)).toMatch(/ · ▲ 42 · named$/);
    expect(line(elsewhere)).not.toContain('🗳');
    await db.delete(queueItems).where(and(eq(queueItems.guildId, 'g1'), eq(queueItems.paperId, p!.id)));
  });

  it("lists the GRPO family's size, then every family with its members, its citers apart and the members new this month (the seed import is not news)", async () => {
    const { db, deps } = seeded();
    // The seed import stamps first_seen_at with the real clock: imported this month, and still not new.
    const thisMonth = await runCommand(family, commandInput('list', {}), { ...deps, now: () => new Date() });
    const text = thisMonth.embeds![0]!.description!;
    const [inFamily] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(papers)
      .where(eq(papers.grpoFamily, true));
    expect(text).toMatch(new RegExp(`^\\*\\*${inFamily!.n} papers in the GRPO family\\*\\*`));
    expect(text.split('\n').filter((l) => /^\*\*[^*]+\*\* · \d+ members?/.test(l))).toHaveLength(FAMILIES.length);
    // GSPO itself is its one member; the 50 papers citing it are counted apart.
    expect(text).toMatch(/^\*\*GSPO\*\* · 1 member · 50 more cite it · TRL: supported$/m);
    expect(text).toMatch(/^\*\*VinePPO\*\* · 0 members · TRL: not supported$/m);
    const [gspo] = await db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, '2507.18071'));
    await db
      .update(papers)
      .set({ newsAt: new Date('2031-03-02T06:15:00Z') })
      .where(eq(papers.id, gspo!.id));
    const later = await runCommand(family, commandInput('list', {}), {
      ...deps,
      now: () => new Date('2031-03-15T00:00:00Z'),
    });
    expect(later.embeds![0]!.description).toMatch(
      /^\*\*GSPO\*\* · 1 member \(1 new in March 2031\) · 50 more cite it · TRL: supported$/m,
    );
    expect(later.embeds![0]!.footer).toMatch(/March 2031/);
    await db.update(papers).set({ newsAt: null }).where(eq(papers.id, gspo!.id));
  });

  it('counts a paper whose summary changes a GRPO axis as building on GRPO, and its card says so', async () => {
    const { db } = seeded();
    const [p] = await db
      .select()
      .from(papers)
      .where(sql`not ('GRPO' = any(${papers.families})) and ${papers.arxivId} is not null and ${papers.grpoFamily}`)
      .limit(1);
    const countOf = async () =>
      Number(
        /^\*\*GRPO\*\* · (\d+) members?/m.exec(
          (await runCommand(family, commandInput('list', {}), seeded().deps)).embeds![0]!.description!,
        )![1],
      );
    const before = await countOf();
    expect((await familiesOfPaper(db, p!.id, FAMILIES.map(familyRef))).members).not.toContain('GRPO');
    await db.insert(summaries).values([
      {
        paperId: p!.id,
        lang: 'en',
        promptVersion: 'test-unchanged',
        status: 'ok',
        content: { grpo_delta: { clipping: 'unchanged', kl_term: 'n/a' } },
      },
    ]);
    expect(await countOf()).toBe(before);
    await db.insert(summaries).values({
      paperId: p!.id,
      lang: 'en',
      promptVersion: 'test-changed',
      status: 'ok',
      content: { grpo_delta: { clipping: 'changed: asymmetric bounds', kl_term: 'unchanged' } },
    });
    expect(await countOf()).toBe(before + 1);
    expect((await familiesOfPaper(db, p!.id, FAMILIES.map(familyRef))).members).toEqual(['GRPO']);
    const card = await runCommand(paper, commandInput('show', { id: p!.arxivId! }), seeded().deps);
    expect(card.embeds![0]!.fields!.find((f) => f.name === 'Also builds on')!.value).toMatch(/^GRPO/);
    await db.delete(summaries).where(eq(summaries.paperId, p!.id));
  });

  it("shows on a citing paper's card (the seed citers have no arXiv id: found by title) that it cites GSPO's defining paper, apart from its families", async () => {
    const { db } = seeded();
    const [citer] = await db
      .select({ id: papers.id, title: papers.title })
      .from(citations)
      .innerJoin(papers, eq(papers.id, citations.citingPaperId))
      .where(
        sql`${citations.citedPaperId} = (select id from papers where arxiv_id = '2507.18071') and not ('GSPO' = any(${papers.families}))`,
      )
      .limit(1);
    expect(citer).toBeDefined();
    const card = await runCommand(paper, commandInput('show', { id: citer!.title }), seeded().deps);
    expect(card.embeds![0]!.fields!.find((f) => f.name === 'Cites the defining paper of')!.value).toContain('GSPO');
    expect(card.embeds![0]!.fields!.find((f) => f.name === 'Families · topics')?.value ?? '').not.toContain('GSPO');
  });

  it('lists only family names under "Also builds on", never NULL (GSPO\'s defining paper names GRPO only as its comparison, so it has no such row)', async () => {
    const card = await runCommand(paper, commandInput('show', { id: '2507.18071' }), seeded().deps);
    expect(replyText(card)).not.toMatch(/NULL/);
    expect(card.embeds![0]!.fields!.find((f) => f.name === 'Also builds on')).toBeUndefined();
    const p = (await seeded().db.select({ id: papers.id }).from(papers).where(eq(papers.arxivId, '2507.18071')))[0]!;
    expect(await familiesOfPaper(seeded().db, p.id, FAMILIES.map(familyRef))).toEqual({ members: [], cites: [] });
  });

  it("keeps every family's answer within Discord limits", async () => {
    for (const f of FAMILIES) {
      const reply = await show(f.name);
      expect(
        reply.embeds!.reduce((n, e) => n + embedSize(e), 0),
        f.name,
      ).toBeLessThanOrEqual(6000);
      for (const e of reply.embeds!) {
        expect(e.description!.length).toBeLessThanOrEqual(4096);
        for (const field of e.fields ?? [])
          expect(field.value.length, `${f.name}: ${field.name}`).toBeLessThanOrEqual(1024);
      }
    }
  });

  it('draws the family tree with its counts, and gives the same tree as text', async () => {
    const reply = await runCommand(family, commandInput('tree', {}), seeded().deps);
    const [embed] = reply.embeds!;
    const [file] = reply.files!;
    expect(embed!.image).toBe('family-tree.png');
    expect(file).toMatchObject({ name: 'family-tree.png', width: 1000 });
    expect(readPng(file!.data)).toMatchObject({ width: 1000, height: file!.height });
    expect(file!.description).toMatch(/^The GRPO family tree: 21 algorithms as boxes .* with 24 arrows/);
    const lines = embed!.description!.split('\n');
    expect(lines).toHaveLength(FAMILIES.length);
    expect(lines).toContain('**GSPO** 2025 · 1 member · builds on GRPO');
    // TTRL names PRIME only in its repository's URL (github.com/PRIME-RL/TTRL): not a PRIME paper.
    expect(lines).toContain('**PRIME** 2025 · 0 members · builds on RLOO, PPO');
  });

  it('highlights the family asked for, in the tree and in /family show, and refuses an unknown one', async () => {
    const tree = await runCommand(family, commandInput('tree', { family: 'dapo' }), seeded().deps);
    expect(tree.embeds![0]!.title).toBe('GRPO family tree: DAPO');
    expect(tree.embeds![0]!.description).toMatch(/^\*\*DAPO\*\* ◀ 2025/m);
    expect(tree.files![0]!.name).toBe('family-tree-dapo.png');
    expect(tree.files![0]!.description).toMatch(/DAPO is highlighted: it builds on GRPO, and VAPO builds on it\.$/);
    const shown = await show('GSPO');
    expect(shown.embeds![0]!.image).toBe('family-tree-gspo.png');
    expect(shown.files!.map((f) => f.name)).toEqual(['family-tree-gspo.png']);
    expect(shown.files![0]!.description).toMatch(
      /GSPO is highlighted: it builds on GRPO, and nothing in the tree builds on it yet\.$/,
    );
    const unknown = await runCommand(family, commandInput('tree', { family: 'PPO-Ultra' }), seeded().deps);
    expect(unknown).toMatchObject({ ephemeral: true, content: expect.stringMatching(/^No family called "PPO-Ultra"/) });
  });

  it("saves the picture under the console's pictures folder and prints its path", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'grpo-pictures-'));
    const text = await answerLine('/family tree family:GSPO', seeded().deps, undefined, dir);
    const file = path.join(dir, 'family-tree-gspo.png');
    expect(text).toContain(`🖼 ${file} (1000×`);
    expect(readPng(await readFile(file)).width).toBe(1000);
  });

  it('autocompletes family names from the data file', () => {
    expect(familyChoices('grpo').map((c) => c.value)).toEqual(
      expect.arrayContaining(['GRPO', 'Dr. GRPO', 'Flow-GRPO', 'DanceGRPO', 'Critique-GRPO']),
    );
    expect(familyChoices('').length).toBe(Math.min(FAMILIES.length, 25));
  });
});

describe('the family data file', () => {
  const seeded = useSeededDb();

  it('is the one list of family names: the classifier reports only its names, and says why other cues name none', () => {
    for (const c of FAMILY_CUES) {
      if (c.family !== null) expect(FAMILY_NAMES, `${c.name} reports ${c.family}`).toContain(c.family);
      if (c.family !== c.name)
        expect(NOT_COVERED, `${c.name} is reported as ${c.family ?? 'no family'}: NOT_COVERED says why`).toHaveProperty(
          [c.name],
        );
    }
    for (const f of FAMILIES)
      expect(
        FAMILY_CUES.map((c) => c.family),
        `${f.name} is not a classifier family`,
      ).toContain(f.name);
  });

  it('has unique slugs that resolve, valid arXiv ids and parents that exist', () => {
    expect(new Set(FAMILIES.map((f) => f.slug)).size).toBe(FAMILIES.length);
    expect(FAMILIES.length).toBeLessThanOrEqual(25);
    for (const f of FAMILIES) {
      expect(f.slug).toMatch(/^[a-z0-9-]+$/);
      expect(findFamily(f.slug)).toBe(f);
      expect(findFamily(f.name)).toBe(f);
      if (f.defining.arxivId) expect(f.defining.arxivId).toMatch(/^\d{4}\.\d{5}$/);
      for (const parent of f.buildsOn)
        expect(FAMILIES.some((g) => g.name === parent) || parent in NOT_COVERED, `${f.name} builds on ${parent}`).toBe(
          true,
        );
      expect(f.description.length).toBeLessThanOrEqual(1000);
      for (const s of f.trl.settings) expect(s.since, `${f.name}: ${s.setting}`).toMatch(/^TRL >= \d+\.\d+/);
      if (f.trl.support !== 'none') expect(f.trl.settings.length, f.name).toBeGreaterThan(0);
    }
  });

  it('records the TRL versions checked on 2026-11-23 (TRL 1.9)', () => {
    const setting = (family: string, start: string) =>
      findFamily(family)!.trl.settings.find((s) => s.setting.startsWith(start));
    expect(setting('GRPO', 'loss_type="grpo"')!.since).toBe('TRL >= 0.17');
    expect(setting('Dr. GRPO', 'loss_type="dr_grpo"')!.since).toBe('TRL >= 0.17');
    expect(setting('DAPO', 'loss_type="dapo"')!.since).toBe('TRL >= 0.22');
    expect(setting('DAPO', 'reward_funcs=[..., get_soft_overlong_punishment')!.since).toBe('TRL >= 0.22');
    expect(setting('RLVR', 'reward_funcs=[trl.rewards.accuracy_reward')!.since).toBe('TRL >= 0.24');
    expect(setting('CISPO', 'loss_type="cispo", epsilon_high=5.0')!.since).toBe('TRL >= 0.26');
    expect(findFamily('GMPO')!.trl).toMatchObject({
      support: 'native',
      settings: [{ since: 'TRL >= 1.7', setting: expect.stringContaining('trl.experimental.gmpo') }],
    });
    expect(setting('REINFORCE++', 'RLOOTrainer + RLOOConfig(normalize_advantages=True)')).toBeDefined();
    // Every defining id was checked (issue 14 against arXiv, then against public texts citing it by id and title): no card says 'from memory'.
    expect(FAMILIES.filter((f) => f.defining.idCheck === 'recalled').map((f) => f.name)).toEqual([]);
  });

  it('agrees with the seed corpus on the defining papers it holds', async () => {
    const { db } = seeded();
    for (const f of FAMILIES) {
      if (!f.defining.arxivId) continue;
      const [stored] = await db
        .select({ title: papers.title })
        .from(papers)
        .where(eq(papers.arxivId, f.defining.arxivId));
      if (f.defining.idCheck === 'seed') expect(stored, `${f.name} is marked as in the seed corpus`).toBeDefined();
      if (stored) expect(stored.title.toLowerCase(), f.name).toContain(f.defining.title.toLowerCase().slice(0, 20));
    }
  });
});
