/**
 * What the bot says about a paper's families, measured on the answer key test/fixtures/families
 * (188 corpus papers labelled by role, split dev/test and frozen; its README says how to score):
 *   tags     family-tag precision and recall on dev and test, an ancestor of a true family not counted
 *            wrong and a descendant of a key family counting as recalled;
 *   recipes  on test, the paper card's "Reproduce with TRL" as a user reads it: shown only when the
 *            paper is in the GRPO family and trains something (surveys, analyses and benchmarks get
 *            none), never an empty GRPOConfig, a family's recipe only for a true family and labelled
 *            as the family's when the paper states no settings, every caveat about a true family and,
 *            when it is about one kind of paper (process supervision), about a paper of that kind;
 *   counts   the number each of /topics, /family list, /status, /trends and the poll's summary line
 *            gives for "the GRPO family", against the one definition (`grpo_family` in the corpus).
 * Tags are what the stored rows carry after the seed import (what cards show); recipes are read from
 * the rendered /paper show cards; counts from the commands' own answers.
 *
 *   npm run bench -- --only families
 *   npx tsx bench/families.ts [--split dev|test|all|days-dev|days-test] [--errors]   # tags only, no database (tune on dev, days-dev)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { buildDeps } from '../src/app.ts';
import { loadConfig } from '../src/core/config.ts';
import type { CommandDeps, CommandInput } from '../src/core/command.ts';
import type { Reply } from '../src/core/reply.ts';
import { classifyPaper } from '../src/core/papers/classify.ts';
import { FAMILIES } from '../src/core/papers/families.ts';
import { titleKey } from '../src/core/papers/identity.ts';
import { family as familyCommand } from '../commands/family.ts';
import { paper as paperCommand } from '../commands/paper.ts';
import { status as statusCommand } from '../commands/status.ts';
import { topics as topicsCommand } from '../commands/topics.ts';
import { trends as trendsCommand } from '../commands/trends.ts';
import { describeSummaryRun } from '../src/cli/summarize.ts';
import { summarizePending } from '../jobs/summarize-pending.ts';
import { papers } from '../db/schema.ts';
import { sql } from 'drizzle-orm';
import { importSeeds, SEED_DIR } from '../seeds/import.ts';
import { mergeSeedPapers } from '../seeds/corpus.ts';
import { loadSeedCorpus } from '../seeds/parse/index.ts';
import type { BenchServer } from './pg.ts';
import { round } from './stats.ts';
import { replyText } from '../test/commands/helpers.ts';
import { days, loadDay } from './classify-days.ts';

const KEY_FILE = fileURLToPath(new URL('../test/fixtures/families/key.jsonl', import.meta.url));
/** In-family papers of the dev days (test/fixtures/classifier/days), labelled by role the same way: more dev data. */
const DAYS_KEY_FILE = fileURLToPath(new URL('../test/fixtures/families/days-key.jsonl', import.meta.url));
/** The instant the counts are taken at (the day the key was frozen). */
const NOW = new Date('2026-11-28T12:00:00Z');

export interface KeyRow {
  key: string;
  title: string;
  split: 'dev' | 'test';
  in_family: boolean;
  families: string[];
  kind: 'method' | 'application' | 'analysis' | 'survey' | 'benchmark' | 'system' | 'other';
  evidence: string;
  mentioned_not_member: string[];
  uncertain: boolean;
  note: string;
}

export function loadKey(file = KEY_FILE): KeyRow[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as KeyRow);
}

/** Every family's ancestors through `buildsOn` (transitively). */
const ANCESTORS = new Map<string, Set<string>>();
for (const f of FAMILIES) {
  const seen = new Set<string>();
  const walk = (name: string) => {
    for (const up of FAMILIES.find((x) => x.name === name)?.buildsOn ?? [])
      if (!seen.has(up)) {
        seen.add(up);
        walk(up);
      }
  };
  walk(f.name);
  ANCESTORS.set(f.name, seen);
}
const isAncestor = (a: string, of: string) => ANCESTORS.get(of)?.has(a) ?? false;

export interface TagScore {
  split: string;
  papers: number;
  predicted: number;
  correct: number;
  keyTags: number;
  recalled: number;
  precision: number;
  recall: number;
  /** Papers whose predicted set has a wrong tag or misses a key family. */
  wrongPapers: number;
  errors: {
    key: string;
    title: string;
    predicted: string[];
    key_families: string[];
    wrong: string[];
    missed: string[];
  }[];
}

/** Tag precision/recall with the README's ancestor leniency. */
export function scoreTags(rows: readonly KeyRow[], predict: (r: KeyRow) => string[], split: string): TagScore {
  let predicted = 0;
  let correct = 0;
  let keyTags = 0;
  let recalled = 0;
  const errors: TagScore['errors'] = [];
  for (const r of rows) {
    const tags = [...new Set(predict(r))];
    const wrong = tags.filter((t) => !r.families.includes(t) && !r.families.some((k) => isAncestor(t, k)));
    const missed = r.families.filter((k) => !tags.includes(k) && !tags.some((t) => isAncestor(k, t)));
    predicted += tags.length;
    correct += tags.length - wrong.length;
    keyTags += r.families.length;
    recalled += r.families.length - missed.length;
    if (wrong.length || missed.length)
      errors.push({ key: r.key, title: r.title, predicted: tags, key_families: r.families, wrong, missed });
  }
  return {
    split,
    papers: rows.length,
    predicted,
    correct,
    keyTags,
    recalled,
    precision: round(predicted ? correct / predicted : 1, 3),
    recall: round(keyTags ? recalled / keyTags : 1, 3),
    wrongPapers: errors.length,
    errors,
  };
}

/** The days key's papers: their title and abstract as the day's listing has them. */
function dayTexts(): Map<string, { title: string; abstract: string }> {
  const out = new Map<string, { title: string; abstract: string }>();
  for (const d of days('all')) for (const p of loadDay(d)) out.set(p.id, { title: p.title, abstract: p.abstract });
  return out;
}

/** Tag scores on the days key, one split: straight from the classifier, as a poll tags a paper. */
export function dayTagScore(split: 'dev' | 'test'): TagScore {
  const texts = dayTexts();
  return scoreTags(
    loadKey(DAYS_KEY_FILE).filter((k) => k.split === split),
    (k) => {
      const t = texts.get(k.key);
      return t ? classifyPaper(t).families : [];
    },
    `days-${split}`,
  );
}

/** The seed corpus's papers with an abstract, by key (arXiv id, or `title:<title key>`). */
async function seedTexts(): Promise<Map<string, { title: string; abstract: string }>> {
  const merged = mergeSeedPapers((await loadSeedCorpus(SEED_DIR)).papers);
  const out = new Map<string, { title: string; abstract: string }>();
  for (const p of merged) {
    const text = { title: p.title, abstract: p.abstract ?? '' };
    if (p.arxivId) out.set(p.arxivId, text);
    out.set(`title:${titleKey(p.title)}`, text);
  }
  return out;
}

// ---- recipes, read from the rendered card ----

/** Kinds of paper that train nothing of their own: no recipe belongs on their card. */
const NO_RECIPE_KINDS = new Set(['survey', 'analysis', 'benchmark']);
/** A caveat about one kind of paper, and how to tell a paper of that kind from its abstract. */
const CONDITIONAL_CAVEATS: { caveat: RegExp; applies: RegExp }[] = [
  { caveat: /sandboxed code execution/i, applies: /\bcode\b|\bcoding\b|\bprogram\w*|\bsoftware\b|\bunit[- ]tests?\b/i },
  {
    caveat: /process-supervision/i,
    applies: /\bprocess(?:-level)? (?:rewards?|supervision)\b|\bstep-level rewards?\b|\bPRMs?\b/i,
  },
];

export interface RecipeCheck {
  key: string;
  title: string;
  kind: string;
  shown: boolean;
  problems: string[];
}

/** What is wrong with a card's recipe field for this paper (nothing: the card claims only what it can back). */
export function checkRecipe(r: KeyRow, abstract: string, card: Reply): RecipeCheck {
  const field = card.embeds?.[0]?.fields?.find((f) => /^Reproduce with TRL/.test(f.name));
  const problems: string[] = [];
  const shown = Boolean(field);
  if (field) {
    const text = `${field.name}\n${field.value}`;
    if (!r.in_family) problems.push('recipe on a paper outside the family');
    if (NO_RECIPE_KINDS.has(r.kind)) problems.push(`recipe on ${r.kind === 'analysis' ? 'an' : 'a'} ${r.kind}`);
    if (/GRPOConfig\(\s*\)/.test(text)) problems.push('empty GRPOConfig');
    const named = /closest family recipe is ([\w.+-]+(?: GRPO)?)'s/i.exec(text)?.[1];
    const fromPaper = /from the paper's (?:stated )?settings/i.test(text);
    if (/GRPOConfig\(/.test(text) && !named && !fromPaper) problems.push('family default presented as the paper’s');
    if (named && !r.families.includes(named)) problems.push(`recipe of ${named}, not a family of the paper`);
    for (const f of FAMILIES)
      for (const m of f.trl.missing) {
        if (!text.includes(m.slice(0, 40))) continue;
        if (!r.families.includes(f.name))
          problems.push(`caveat of ${f.name} (not a family of the paper): ${m.slice(0, 50)}`);
        const cond = CONDITIONAL_CAVEATS.find((c) => c.caveat.test(m));
        if (cond && !cond.applies.test(`${r.title}\n${abstract}`))
          problems.push(`caveat about another kind of paper: ${m.slice(0, 50)}`);
      }
  }
  return { key: r.key, title: r.title, kind: r.kind, shown, problems: [...new Set(problems)] };
}

// ---- counts ----

export interface CountFigure {
  command: string;
  /** The figure the command gives for the GRPO family (or a part of it), as shown. */
  shown: string;
  value: number | null;
  /** Equal to the one definition, or labelled as a named part of it ("of the N GRPO-family papers"). */
  agrees: boolean;
}

const input = (subcommand: string | undefined, options: CommandInput['options']): CommandInput => ({
  user: { id: 'bench', name: 'bench' },
  guildId: 'bench-guild',
  channelId: 'bench-channel',
  canManage: true,
  subcommand,
  options,
});

/**
 * Each command's figure for the GRPO family: the first number the command puts next to the family's
 * name. It agrees when it is the one definition's count, or when the answer says which part of the
 * family it counts and of how many ("of the 136 GRPO-family papers").
 */
function figure(command: string, text: string, patterns: RegExp[], total: number): CountFigure {
  for (const re of patterns) {
    const m = re.exec(text);
    if (!m) continue;
    // A line of parts ("0 read · 82 not fetched yet") counts what its parts add up to.
    const value = m[1]!.includes('·')
      ? m[1]!.split('·').reduce((n, part) => n + (Number(/\d+/.exec(part)?.[0]) || 0), 0)
      : Number(m[1]);
    const labelledPart = new RegExp(`of (?:the |its )?${total} (?:GRPO-family papers|papers in the GRPO family)`).test(
      text,
    );
    return { command, shown: m[0].replace(/\s+/g, ' ').slice(0, 90), value, agrees: value === total || labelledPart };
  }
  return { command, shown: '(no family figure)', value: null, agrees: true };
}

async function countFigures(deps: CommandDeps, total: number): Promise<CountFigure[]> {
  const run = async (c: typeof topicsCommand, sub: string | undefined, o: CommandInput['options'] = {}) =>
    replyText(await c.execute(input(sub, o), deps));
  const summary = describeSummaryRun({
    status: 'ok',
    stats: await summarizePending({ ...deps, sql: undefined as never }, {}),
  } as Parameters<typeof describeSummaryRun>[0]);
  return [
    figure('/topics', await run(topicsCommand, undefined), [/(\d+) GRPO-family papers in the corpus/], total),
    figure(
      '/family list',
      await run(familyCommand, 'list'),
      [/(\d+) papers? in the GRPO family/, /\*\*GRPO\*\* · (\d+) papers?/],
      total,
    ),
    figure(
      '/status',
      await run(statusCommand, undefined),
      [/(\d+) papers? in the GRPO family/, /Full texts \(GRPO family\)\n([^\n]*)/],
      total,
    ),
    figure(
      '/trends weeks:104',
      await run(trendsCommand, undefined, { weeks: 104 }),
      [/(\d+) papers? in the GRPO family/, /of the (\d+) GRPO-family papers/, /(\d+) papers? in \d+ weeks/],
      total,
    ),
    figure(
      'poll (summaries line)',
      summary,
      [
        /(\d+) papers? in the GRPO family/,
        /of the (\d+) GRPO-family papers/,
        /(\d+) papers show labelled extractive summaries/,
      ],
      total,
    ),
  ];
}

export interface FamiliesResult {
  tags: Omit<TagScore, 'errors'>[];
  recipes: { papers: number; shown: number; wrong: number; problems: RecipeCheck[] };
  counts: { total: number; figures: CountFigure[]; agree: number };
}

/** `npm run bench -- --only families`: the seed corpus imported into a fresh database, then read as users read it. */
export async function benchFamilies(bench: BenchServer, log: (s: string) => void): Promise<FamiliesResult> {
  const handle = await bench.freshDb('bench_families');
  try {
    log('families: importing the seed corpus');
    await importSeeds({ db: handle.db, now: () => NOW });
    const deps: CommandDeps = buildDeps({
      db: handle.db,
      sql: handle.sql,
      config: loadConfig({}),
      log: pino({ level: 'silent' }),
      now: () => NOW,
    });
    const rows = await handle.db
      .select({
        id: papers.id,
        arxivId: papers.arxivId,
        title: papers.title,
        abstract: papers.abstract,
        families: papers.families,
        grpoFamily: papers.grpoFamily,
      })
      .from(papers);
    const byKey = new Map<string, (typeof rows)[number]>();
    for (const r of rows) {
      if (r.arxivId) byKey.set(r.arxivId, r);
      byKey.set(`title:${titleKey(r.title)}`, r);
    }
    const key = loadKey();
    const stored = (k: KeyRow) => byKey.get(k.key);
    // What the card shows as tags: the stored families of a paper in the family.
    const tagsOf = (k: KeyRow) => {
      const p = stored(k);
      return p?.grpoFamily ? p.families : [];
    };
    const tags = [
      ...(['dev', 'test'] as const).map((split) =>
        scoreTags(
          key.filter((k) => k.split === split),
          tagsOf,
          split,
        ),
      ),
      // The stream's in-family papers (days key), tagged as a poll tags them.
      dayTagScore('dev'),
      dayTagScore('test'),
    ].map(({ errors: _e, ...s }) => s);
    log('families: reading the test split’s cards');
    const checks: RecipeCheck[] = [];
    for (const k of key.filter((x) => x.split === 'test')) {
      const p = stored(k);
      if (!p) continue;
      const card = await paperCommand.execute(input('show', { id: p.arxivId ?? p.title }), deps);
      checks.push(checkRecipe(k, p.abstract, card));
    }
    const [totalRow] = await handle.db.execute<{ n: number }>(
      sql`select count(*)::int as n from papers where grpo_family`,
    );
    const total = Number(totalRow?.n ?? 0);
    log('families: the commands’ counts');
    const figures = await countFigures(deps, total);
    return {
      tags,
      recipes: {
        papers: checks.length,
        shown: checks.filter((c) => c.shown).length,
        wrong: checks.filter((c) => c.problems.length).length,
        problems: checks.filter((c) => c.problems.length),
      },
      counts: { total, figures, agree: figures.filter((f) => f.agrees).length },
    };
  } finally {
    await handle.close();
  }
}

export function familiesReport(r: FamiliesResult): string {
  const problemCounts = new Map<string, number>();
  for (const c of r.recipes.problems)
    for (const p of c.problems) {
      const kind = p.replace(/:.*$/, '').replace(/^(caveat|recipe) of [\w.+-]+(?: GRPO)?/, '$1 of a family');
      problemCounts.set(kind, (problemCounts.get(kind) ?? 0) + 1);
    }
  return [
    'Family tags on the answer key (ancestor of a true family not counted wrong)',
    '| split | papers | tags predicted | right | key tags | recalled | precision | recall | papers with a wrong set |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.tags.map(
      (t) =>
        `| ${t.split} | ${t.papers} | ${t.predicted} | ${t.correct} | ${t.keyTags} | ${t.recalled} | ${t.precision.toFixed(3)} | ${t.recall.toFixed(3)} | ${t.wrongPapers} |`,
    ),
    '',
    `Recipes on the test split's cards: ${r.recipes.papers} cards, ${r.recipes.shown} with a recipe field, ${r.recipes.wrong} with a claim that does not apply`,
    ...[...problemCounts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${n} × ${k}`),
    '',
    `Counts of "the GRPO family" (one definition: ${r.counts.total} papers); ${r.counts.agree} of ${r.counts.figures.length} equal or labelled`,
    '| command | figure shown | value | agrees |',
    '|---|---|---:|---|',
    ...r.counts.figures.map((f) => `| ${f.command} | ${f.shown} | ${f.value ?? '—'} | ${f.agrees ? 'yes' : 'no'} |`),
    '',
  ].join('\n');
}

/** Tags only, straight from the classifier (no database): for tuning on dev with --errors. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { split: { type: 'string', default: 'dev' }, errors: { type: 'boolean', default: false } },
  });
  const texts = await seedTexts();
  const key = loadKey().filter((k) => values.split === 'all' || k.split === values.split);
  const s =
    values.split === 'days-dev' || values.split === 'days-test'
      ? dayTagScore(values.split === 'days-dev' ? 'dev' : 'test')
      : scoreTags(
          key,
          (k) => {
            const t = texts.get(k.key);
            return t ? classifyPaper(t).families : [];
          },
          values.split!,
        );
  const { errors, ...figures } = s;
  console.log(JSON.stringify(figures));
  if (values.errors)
    for (const e of errors)
      console.log(
        `${e.key.padEnd(12)} pred [${e.predicted.join(',')}] key [${e.key_families.join(',')}] wrong [${e.wrong.join(',')}] missed [${e.missed.join(',')}] ${e.title.slice(0, 70)}`,
      );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
