/** Plain-text tables of the benchmark figures (also valid Markdown, for docs/BENCHMARKS.md). */
import { pollMemoryTable } from './poll-memory.ts';
import type { DigestCostResult, VariantResult } from './digest-cost.ts';
import type { DigestResult } from './digest.ts';
import type { IngestResult } from './ingest.ts';
import { renderReport } from './render.ts';
import { classifyDaysReport } from './classify-days.ts';
import { familiesReport } from './families.ts';
import { searchQualityReport } from './search-quality.ts';
import type { RepairResult, Results } from './run.ts';
import type { SizeResult } from './search.ts';
import type { SeedResult } from './seed.ts';
import type { StartupResult } from './startup.ts';
import { CLASSES } from './queries.ts';
import { table } from './stats.ts';

/** The goals, shown beside the figures. */
export const GOALS = {
  searchP95Ms: 25,
  startupMs: 1000,
  ingestItemsPerSecond: 2000,
  digestCallsPerPaperPerLanguage: 1,
};

export function searchReport(sizes: SizeResult[]): string {
  const out: string[] = [];
  for (const s of sizes) {
    const names = Object.keys(s.variants);
    out.push(
      `Search, ${s.papers.toLocaleString('en')} papers (loaded in ${(s.loadMs / 1000).toFixed(1)} s, table ${s.tableMb} MB; ` +
        `index built in ${(s.index.buildMs / 1000).toFixed(1)} s, +${s.index.heapMb} MB heap, +${s.index.rssMb} MB RSS; ` +
        `load average ${s.loadAverage.join(' -> ')}), ms:`,
    );
    const head = ['class', ...names.flatMap((n) => [`${n} p50`, `${n} p95`])];
    const row = (
      label: string,
      pick: (v: SizeResult['variants'][string]) => { p50: number; p95: number } | undefined,
    ) => [label, ...names.flatMap((n) => [pick(s.variants[n]!)?.p50 ?? '-', pick(s.variants[n]!)?.p95 ?? '-'])];
    const rows = [...CLASSES.map((c) => row(c, (v) => v.classes[c])), row('overall', (v) => v.overall)];
    out.push(table(head, rows));
    const p95 = s.variants.current?.overall.p95;
    if (p95 !== undefined)
      out.push(`goal: p95 < ${GOALS.searchP95Ms} ms -> ${p95 < GOALS.searchP95Ms ? 'met' : 'missed'} (${p95} ms)`);
    out.push('');
    out.push(
      table(
        ['query', 'class', ...names.map((n) => `${n} p50`), 'expected at', 'top-10 shared with previous'],
        (s.variants.current ?? s.variants[names[0]!]!).queries.map((q, i) => [
          q.q.length > 44 ? `${q.q.slice(0, 43)}…` : q.q,
          q.cls,
          ...names.map((n) => s.variants[n]!.queries[i]!.p50),
          q.expectedRank === undefined ? '' : (q.expectedRank ?? 'not in 10'),
          q.overlapWithPrevious ?? '',
        ]),
      ),
    );
    out.push('');
  }
  return out.join('\n');
}

export function seedReport(s: SeedResult): string {
  return [
    `Seed import (${s.papers} papers, median of ${s.runs} fresh databases), ms:`,
    table(
      ['import', 'median', 'runs'],
      [
        ['cold (first import)', s.coldMs, s.samples.map((x) => x.coldMs).join(' ')],
        ['warm (second, idempotent)', s.warmMs, s.samples.map((x) => x.warmMs).join(' ')],
        ['parsing the seed files (build cache)', s.parseMs, ''],
        ['parsing them, repairing live', s.parseLiveMs, ''],
      ],
    ),
    `second import changed ${s.warmChanged} rows${s.warmChanged === 0 ? ' (idempotent)' : ' (NOT idempotent)'}`,
    '',
  ].join('\n');
}

export function startupReport(s: StartupResult): string {
  return [
    `Start-up of \`node dist/cli.js console\` (compiled; baseline \`tsx src/cli.ts console\`) on a warm seeded data dir (median of ${s.runs}), ms:`,
    table(
      ['measure', 'compiled', 'tsx'],
      [
        ['spawn -> first answer to /help', s.firstAnswerMs, s.tsx.firstAnswerMs],
        ['spawn -> process exited', s.totalMs, s.tsx.totalMs],
      ],
    ),
    `goal: first answer < ${GOALS.startupMs} ms -> ${s.firstAnswerMs < GOALS.startupMs ? 'met' : 'missed'}`,
    '',
    'Where the time goes (bench/startup-probe.ts, median of 3), ms:',
    table(['step', 'ms'], Object.entries(s.steps)),
    '',
    'For scale, ms:',
    table(['reference', 'ms'], Object.entries(s.reference)),
    '',
    'CPU self time of one probe run by origin (node --cpu-prof, main thread), ms:',
    table(['origin', 'ms'], s.cpuByOrigin),
    '',
  ].join('\n');
}

export function ingestReport(s: IngestResult): string {
  const n = (x: number) => x.toLocaleString('en');
  const b = s.baseline;
  const runs = (st: IngestResult['batch']) => st.samples.map((x) => Math.round(x.parseMs + x.upsertMs)).join(' ');
  const profileTotal = s.profile.byOrigin.reduce((sum, [, ms]) => sum + ms, 0);
  return [
    `Ingest: a synthetic arXiv RSS feed of ${n(s.items)} items (${s.feedMb} MB, ${s.candidates} candidates, ${s.skipped} skipped), ` +
      `parsed and ingested on a fresh database (median of ${s.runs}; Postgres fsync=${s.postgres.fsync}, synchronous_commit=${s.postgres.synchronousCommit}):`,
    table(
      [
        'run',
        'items',
        'parse ms',
        'classify+upsert ms',
        'total ms',
        'items/s',
        'upsert-only items/s',
        'runs (total ms)',
      ],
      [
        [
          'batch (ingestCandidates)',
          s.items,
          s.batch.parseMs,
          s.batch.upsertMs,
          s.batch.totalMs,
          s.batch.itemsPerSecond,
          s.batch.upsertItemsPerSecond,
          runs(s.batch),
        ],
        [
          're-run, same database',
          s.items,
          s.rerun.parseMs,
          s.rerun.upsertMs,
          s.rerun.totalMs,
          s.rerun.itemsPerSecond,
          s.rerun.upsertItemsPerSecond,
          runs(s.rerun),
        ],
        [
          `batch, first ${n(b.items)} items`,
          b.items,
          b.batch.parseMs,
          b.batch.upsertMs,
          b.batch.totalMs,
          b.batch.itemsPerSecond,
          b.batch.upsertItemsPerSecond,
          runs(b.batch),
        ],
        [
          `baseline row-by-row, first ${n(b.items)} items`,
          b.items,
          b.rowByRow.parseMs,
          b.rowByRow.upsertMs,
          b.rowByRow.totalMs,
          b.rowByRow.itemsPerSecond,
          b.rowByRow.upsertItemsPerSecond,
          runs(b.rowByRow),
        ],
      ],
    ),
    `first ingest: ${s.stats.new} new (${s.stats.family} GRPO-family, ${s.stats.announced} announced), ${s.rows.papers} papers and ${s.rows.sources} source rows stored`,
    `re-run: ${s.rerun.new} new, ${s.rerun.updated} updated, ${s.rerun.sources} source rows added${s.rerun.new + s.rerun.updated + s.rerun.sources === 0 ? ' (idempotent)' : ' (NOT idempotent)'}`,
    `baseline and batch store the same rows on the prefix: ${b.rowsMatch ? 'yes' : 'NO'}`,
    `ratio batch / row-by-row: ${s.ratio.endToEnd}x end to end (batch on the full feed), ${s.ratio.upsertSamePrefix}x classify+upsert on the same ${n(b.items)} items`,
    `goal: at least ${n(GOALS.ingestItemsPerSecond)} items/s end to end -> ${s.batch.itemsPerSecond >= GOALS.ingestItemsPerSecond ? 'met' : 'missed'} (${n(s.batch.itemsPerSecond)} items/s)`,
    `classifier alone: ${n(s.classifier.papersPerSecond)} papers/s (${n(s.classifier.papers)} papers in ${n(s.classifier.ms)} ms, ${s.classifier.family} GRPO-family); ` +
      `that is ${Math.round((s.classifier.ms / s.batch.upsertMs) * 100)}% of classify+upsert, parsing is ${Math.round((s.batch.parseMs / s.batch.totalMs) * 100)}% of the total`,
    '',
    `Where one batch run's time goes in the Node process (V8 CPU profile, self time; wall ${n(s.profile.wallMs)} ms = parse ${n(s.profile.parseMs)} + ingest ${n(s.profile.ingestMs)}), ms:`,
    table(
      ['origin', 'ms', 'share'],
      s.profile.byOrigin.map(([k, ms]) => [k, ms, `${Math.round((ms / profileTotal) * 100)}%`]),
    ),
    '',
  ].join('\n');
}

const usd = (x: number) => `$${x.toFixed(x < 0.01 ? 6 : 4)}`;

export function digestCostReport(d: DigestCostResult): string {
  const n = (x: number) => x.toLocaleString('en');
  const goalCalls = d.papers * 2 * GOALS.digestCallsPerPaperPerLanguage;
  const v = d.direct;
  const dl = d.delivery;
  const variantRow = (r: VariantResult, label: string) => [
    label,
    r.modelCalls,
    r.httpRequests,
    n(r.tokens.input),
    n(r.tokens.output),
    `${r.tokens.cacheWrite} / ${r.tokens.cacheRead}`,
    usd(r.listCostUsd),
    usd(r.costPerPaperUsd),
    usd(r.costPerChannelUsd),
    r.summarizeMs,
  ];
  return [
    `Digests: LLM cost for a day of ${d.papers} new GRPO-family papers (abstracts ${n(d.abstractChars.min)}-${n(d.abstractChars.max)} chars, mean ${n(d.abstractChars.mean)}; ` +
      `the classifier marks ${d.classifiedFamily} as family) delivered to ${d.channels.total} channels (${d.channels.en} en, ${d.channels.zh} zh, ${d.channels.zones} time zones), ` +
      `${d.model} at list price $${d.price.input}/M input, $${d.price.output}/M output (fake API, tokens = ceil(chars / 3.5)):`,
    table(
      [
        'path',
        'model calls',
        'HTTP requests',
        'input tok',
        'output tok',
        'cache write / read tok',
        'cost',
        'per paper',
        'per channel',
        'summarize ms',
      ],
      [variantRow(v, 'direct calls'), variantRow(d.batch, 'Message Batches (50%)')],
    ),
    `model calls: ${v.modelCalls} after summarizePending, ${v.callsAfterDigests ?? '-'} after postDigests for ${d.channels.total} channels, ${v.callsAfterSecondRun} after a second summarizePending (${v.secondRunPending} pending)` +
      ` -> goal (at most ${goalCalls} = ${d.papers} papers x 2 languages, 0 for channels 2..${d.channels.total}) ${v.modelCalls <= goalCalls && v.callsAfterSecondRun === v.modelCalls && v.callsAfterDigests === v.modelCalls ? 'met' : 'MISSED'}`,
    `batch path: ${d.batch.modelCalls} requests in one batch, ${d.batch.callsAfterSecondRun} after a second run; summaries ok/failed: direct ${v.summaries.ok}/${v.summaries.failed}, batch ${d.batch.summaries.ok}/${d.batch.summaries.failed}`,
    `stored per-summary costs add up to ${usd(v.storedCostUsd)} (direct) and ${usd(d.batch.storedCostUsd)} (batch); the budget's up-front estimates for the same calls: ${usd(v.budgetEstimateUsd)} / ${usd(d.batch.budgetEstimateUsd)}`,
    '',
    'Per language (direct):',
    table(
      ['language', 'calls', 'input tok', 'output tok', 'cost'],
      Object.entries(v.byLang).map(([lang, l]) => [lang, l.calls, n(l.input), n(l.output), usd(l.costUsd)]),
    ),
    `prompt per call ${n(d.promptCharsPerCall.min)}-${n(d.promptCharsPerCall.max)} chars (mean ${n(d.promptCharsPerCall.mean)}), of which the system prompt ${n(d.systemPromptChars)} chars ` +
      `(~${d.systemPromptTokens} tokens, under the ${n(d.minCacheableTokens)}-token minimum cacheable prefix, so it carries no cache breakpoint); answers ${n(d.answerChars.en)} chars en, ${n(d.answerChars.zh)} chars zh`,
    '',
    `Delivery: postDigests for ${d.channels.total} channels with the real composer and a recording poster:`,
    table(
      ['measure', 'value'],
      [
        ['digests planned', dl.planned],
        ['channels posted to', `${dl.channelsPosted} (${dl.noticeOnly} a quiet-day notice only)`],
        ['channels silent (no paper in their topics, quiet day set to nothing)', d.channels.total - dl.channelsPosted],
        ['messages posted', dl.messages],
        ['papers shown (all channels)', dl.papersShown],
        ['shown (paper, language) pairs with an LLM summary', `${dl.shownWithLlmSummary} / ${dl.shownPairs}`],
        ['compose + deliver (postDigests, cold), ms', dl.ms],
        ['per channel, ms', dl.perChannelMs],
        ['loading + composing alone, all channels again (read-only, warm), ms', dl.composeOnlyMs],
        ['second postDigests: digests planned', dl.secondRunPlanned],
      ],
    ),
    '',
  ].join('\n');
}

export function composerReport(d: DigestResult): string {
  return [
    `Composer: composeDigest for ${d.channels.toLocaleString('en')} channels over ${d.papers} candidates, no database (median of ${d.runs} after a warm-up), ms:`,
    table(
      ['measure', 'value'],
      [
        ['all channels, ms', d.totalMs],
        ['per channel, µs', d.perChannelUs],
        ['runs, ms', d.samplesMs.join(' ')],
        ['messages', d.messages],
        ['papers posted', d.papersPosted],
        ['quiet channels', d.quietChannels],
      ],
    ),
    '',
  ].join('\n');
}

/** The figures bench/repair.ts prints with --json (another engineer's script); anything else is shown as is. */
interface RepairFigures {
  roundTrip: { damaged: number; restoredExactly: number; rate: number; goal: number; collateral: number; ms: number };
  seeds: { restored: number; unresolved: number };
  timing: { modelLoadMs: number; repairMs: number; charsPerSecond: number };
}

export function repairReport(r: RepairResult): string {
  if (!r.available) return 'Repair: bench/repair.ts does not exist yet.\n';
  const f = r.json as Partial<RepairFigures> | undefined;
  if (!f?.roundTrip || !f.seeds || !f.timing)
    return ['Repair (bench/repair.ts):', r.text ?? JSON.stringify(r.json, null, 2), ''].join('\n');
  return [
    'Mojibake repair (bench/repair.ts):',
    table(
      ['measure', 'value'],
      [
        ['round trip: characters damaged', f.roundTrip.damaged],
        [
          'round trip: restored exactly',
          `${f.roundTrip.restoredExactly} (${(f.roundTrip.rate * 100).toFixed(2)}%, goal ${(f.roundTrip.goal * 100).toFixed(0)}%)`,
        ],
        ['round trip: clean characters changed', f.roundTrip.collateral],
        ['seed files 002+003: restored / unresolved', `${f.seeds.restored} / ${f.seeds.unresolved}`],
        ['model load, ms', f.timing.modelLoadMs],
        ['repairing 002+003, ms', `${f.timing.repairMs} (${f.timing.charsPerSecond.toLocaleString('en')} chars/s)`],
      ],
    ),
    '',
  ].join('\n');
}

export function fullReport(r: Results): string {
  const parts = [
    `grpo-digest benchmarks, ${r.date}: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGb} GB, node ${r.machine.node}, ${r.machine.postgres}`,
  ];
  parts.push(
    `load average at start ${r.machine.loadStart.join(' ')}, at end ${r.machine.loadEnd.join(' ')}${r.machine.loadStart[0]! > 0.5 ? ' (busy machine: timings may be inflated)' : ''}`,
    '',
  );
  if (r.search) parts.push(searchReport(r.search));
  if (r.quality) parts.push(searchQualityReport(r.quality));
  if (r.classify) parts.push(classifyDaysReport(r.classify));
  if (r.families) parts.push(familiesReport(r.families));
  if (r.seed) parts.push(seedReport(r.seed));
  if (r.startup) parts.push(startupReport(r.startup));
  if (r.ingest) parts.push(ingestReport(r.ingest));
  if (r.repair) parts.push(repairReport(r.repair));
  if (r.digest) parts.push(digestCostReport(r.digest.cost), composerReport(r.digest.composer));
  if (r.render) parts.push(renderReport(r.render));
  if (r.pollMemory)
    parts.push('Peak memory of one poll (issue 26 item 3; goal <= 400 MB)', pollMemoryTable(r.pollMemory), '');
  return parts.join('\n');
}
