/**
 * Merges the two halves of a day labelled by reading (<dir>/<date>-even.jsonl and -odd.jsonl, one reader per
 * half, split by the arXiv id's last digit) into test/fixtures/classifier/days/<date>.jsonl, the days' line
 * format, sorted by id. Checks what a merge can: every line parses, labels are in/out/ambiguous, each id is in
 * its half's parity and appears once. The halves record the announcement date, not the categories, so
 * `announced` is left empty (every row was kept for cs.LG, cs.CL or cs.AI; see the days README). Add the day
 * to DAY_SPLIT in bench/classify-days.ts before any run.
 *
 *   npx tsx bench/merge-day.ts <date> [--dir /work/data/days]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { DayPaper } from './classify-days.ts';

const DAYS = fileURLToPath(new URL('../test/fixtures/classifier/days/', import.meta.url));

const HalfLine = z.object({
  id: z.string().regex(/^\d{4}\.\d{4,5}$/),
  title: z.string().min(1),
  abstract: z.string(),
  announced: z.string(),
  label: z.enum(['in', 'out', 'ambiguous']),
  reason: z.string().min(1),
  abstract_truncated: z.boolean().optional(),
});

export function mergeHalves(date: string, halves: Record<'even' | 'odd', string>): DayPaper[] {
  const seen = new Set<string>();
  const out: DayPaper[] = [];
  for (const half of ['even', 'odd'] as const) {
    halves[half]
      .split('\n')
      .filter((l) => l.trim())
      .forEach((line, i) => {
        const p = HalfLine.parse(JSON.parse(line));
        const where = `${date}-${half} line ${i + 1} (${p.id})`;
        if (p.announced !== date) throw new Error(`${where}: announced ${p.announced}, not ${date}`);
        if (Number(p.id.slice(-1)) % 2 !== (half === 'even' ? 0 : 1)) throw new Error(`${where}: id in the other half`);
        if (seen.has(p.id)) throw new Error(`${where}: duplicate id`);
        seen.add(p.id);
        out.push({
          id: p.id,
          title: p.title,
          abstract: p.abstract,
          announced: [],
          label: p.label,
          reason: p.reason,
          ...(p.abstract_truncated && { abstract_truncated: true }),
        });
      });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { dir: { type: 'string', default: '/work/data/days' } },
  });
  const date = positionals[0];
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error('usage: merge-day.ts <yyyy-mm-dd> [--dir <dir>]');
  const read = (half: string) => readFileSync(`${values.dir}/${date}-${half}.jsonl`, 'utf8');
  const papers = mergeHalves(date, { even: read('even'), odd: read('odd') });
  writeFileSync(`${DAYS}${date}.jsonl`, papers.map((p) => JSON.stringify(p)).join('\n') + '\n');
  const count = (l: string) => papers.filter((p) => p.label === l).length;
  console.log(
    `${date}: ${papers.length} papers, ${count('in')} in, ${count('ambiguous')} ambiguous, ${papers.filter((p) => p.abstract_truncated).length} abstracts truncated to their first sentence`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
