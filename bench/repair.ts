/**
 * Mojibake repair figures (seeds/repair):
 * - round trip: clean Chinese (the translations in seed file 000 and
 *   test/fixtures/clean-zh.txt, neither used to build the model) damaged with
 *   damageLikeSeeds and repaired — characters damaged, restored exactly, rate;
 * - the real damaged seed files 002 + 003: characters restored / unresolved / uncertain;
 * - the answer key made by reading (test/fixtures/repair): per split, damaged characters restored
 *   right, 不 inserted / removed, characters and notes marked uncertain;
 * - timings: model load, repair throughput.
 *
 *   npx tsx bench/repair.ts [--json]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { repairMojibake } from '../seeds/repair/index.ts';
import { bundledModel } from '../seeds/repair/model.ts';
import { measureRoundTrip } from '../seeds/repair/round-trip.ts';
import { measureKey } from './repair-key.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = `${ROOT}seeds/data/`;
const seedFiles = readdirSync(DATA).sort();
const readSeed = (prefix: string): { name: string; text: string } => {
  const name = seedFiles.find((file) => file.startsWith(`${prefix}_`));
  if (name === undefined) throw new Error(`no seed file ${prefix}_*.txt in ${DATA}`);
  return { name, text: readFileSync(DATA + name, 'utf8') };
};

const t0 = performance.now();
bundledModel();
const modelLoadMs = performance.now() - t0;

const t1 = performance.now();
const roundTrip = measureRoundTrip([readSeed('000').text, readFileSync(`${ROOT}test/fixtures/clean-zh.txt`, 'utf8')]);
const roundTripMs = performance.now() - t1;

const seeds = ['002', '003'].map((prefix) => {
  const { name, text } = readSeed(prefix);
  const start = performance.now();
  const result = repairMojibake(text);
  return {
    file: name,
    chars: text.length,
    restored: result.restored,
    unresolved: result.unresolved,
    uncertain: result.uncertain,
    ms: performance.now() - start,
  };
});
const totals = seeds.reduce(
  (sum, s) => ({
    chars: sum.chars + s.chars,
    restored: sum.restored + s.restored,
    unresolved: sum.unresolved + s.unresolved,
    ms: sum.ms + s.ms,
  }),
  { chars: 0, restored: 0, unresolved: 0, ms: 0 },
);

const key = { dev: measureKey('dev'), test: measureKey('test') };

const round = (x: number, digits = 1): number => Number(x.toFixed(digits));
const figures = {
  roundTrip: {
    sources: ['seeds/data/000 (Chinese lines)', 'test/fixtures/clean-zh.txt'],
    damaged: roundTrip.damaged,
    restoredExactly: roundTrip.exact,
    rate: round(roundTrip.rate, 4),
    goal: 0.97,
    collateral: roundTrip.collateral,
    misses: roundTrip.misses.map((m) => `${m.expected}->${m.got} (${m.context})`),
    ms: round(roundTripMs),
  },
  key: Object.fromEntries(
    Object.entries(key).map(([split, f]) => [split, { ...f, rate: round(f.rate, 4), misses: f.misses.length }]),
  ),
  seeds: {
    files: seeds.map((s) => ({ ...s, ms: round(s.ms) })),
    restored: totals.restored,
    unresolved: totals.unresolved,
  },
  timing: {
    modelLoadMs: round(modelLoadMs),
    repairMs: round(totals.ms),
    charsPerSecond: Math.round(totals.chars / (totals.ms / 1000)),
  },
};

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
} else {
  const lines = [
    'Mojibake repair (seeds/repair)',
    `  round trip (000 + clean-zh fixture): ${roundTrip.damaged} characters damaged, ${roundTrip.exact} restored exactly, rate ${roundTrip.rate.toFixed(4)} (goal 0.97)`,
    `    misses: ${figures.roundTrip.misses.join(', ') || 'none'}`,
    ...Object.entries(key).map(
      ([split, f]) =>
        `  key ${split} (${f.notes} notes read): ${f.correct}/${f.damaged} right (${(100 * f.rate).toFixed(2)}%), ` +
        `不 inserted ${f.buInserted} removed ${f.buRemoved}, uncertain ${f.uncertain} (${f.uncertainWrong} wrong), ` +
        `notes with an error ${f.notesWithError} (${f.notesWithErrorMarked} marked)`,
    ),
    ...seeds.map(
      (s) =>
        `  ${s.file}: ${s.restored} restored, ${s.unresolved} unresolved, ${s.uncertain} uncertain (${round(s.ms)} ms)`,
    ),
    `  seeds 002+003: ${totals.restored} restored, ${totals.unresolved} unresolved`,
    `  model load ${round(modelLoadMs)} ms; repair ${figures.timing.charsPerSecond} chars/s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
