/**
 * The key-less settings extractor (src/core/papers/settings-rules.ts) against hand labels: setup passages
 * of real GRPO-family papers (bench/data/settings-labels.json), each read as one experimental-setup
 * unit. A prediction counts as right when its value matches the label after normalising numbers;
 * a wrong value is a false positive and a miss. Prints per-setting and overall precision and recall for
 * the dev split (the passages the patterns were tuned on), the test split (held out) and all.
 *   npx tsx bench/settings-rules.ts
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractSettings, normaliseNumber } from '../src/core/papers/settings-rules.ts';
import { SETTING_KEYS, meansNoKl, type SettingKey } from '../src/core/papers/settings.ts';

interface Labelled {
  name: string;
  split: 'dev' | 'test';
  text: string;
  labels: Partial<Record<SettingKey, string>>;
}
const data = JSON.parse(readFileSync(path.join(import.meta.dirname, 'data/settings-labels.json'), 'utf8')) as {
  papers: Labelled[];
};

const WORDS: Record<string, string> = { two: '2', four: '4', five: '5', six: '6', eight: '8', sixteen: '16', one: '1' };
/** Values as compared: numbers normalised, "0 (no KL term)" = "0", lists as sorted lowercase sets. */
function norm(key: SettingKey, v: string): string {
  const t = v.trim().toLowerCase();
  if (key === 'kl_coef' && meansNoKl(t)) return '0';
  if (WORDS[t]) return WORDS[t]!;
  if (key === 'base_model' || key === 'datasets')
    return t
      .split(/\s*,\s*/)
      .sort()
      .join(',');
  if (key === 'loss_aggregation') return t.includes('token') ? 'token-level' : t;
  if (key === 'reward') return t.includes('binary') ? 'binary' : t;
  const num = /^[\d.,]+\s*[a-z]?$|e-?\d/.test(t)
    ? normaliseNumber(t.replace(/\s*(prompts|responses|samples|questions)$/, ''))
    : t;
  return num;
}

type Counts = Record<SettingKey, { tp: number; fp: number; fn: number }>;
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)}%` : '—');

/** Scores `papers`: the table of counts per setting, and one line per paper saying what went wrong. */
function score(papers: readonly Labelled[]): { per: Counts; lines: string[] } {
  const per = Object.fromEntries(SETTING_KEYS.map((k) => [k, { tp: 0, fp: 0, fn: 0 }])) as Counts;
  const lines: string[] = [];
  for (const p of papers) {
    const found = Object.fromEntries(
      extractSettings([{ heading: 'Experimental setup', kind: 'body', text: p.text }]).map((s) => [s.key, s.value]),
    );
    const row: string[] = [];
    for (const key of SETTING_KEYS) {
      const label = p.labels[key];
      const got = found[key];
      if (got !== undefined && label !== undefined && norm(key, got) === norm(key, label)) per[key].tp++;
      else {
        if (got !== undefined) {
          per[key].fp++;
          row.push(`${key}: got ${got}${label ? ` (label ${label})` : ' (no label)'}`);
        }
        if (label !== undefined) {
          per[key].fn++;
          if (got === undefined) row.push(`${key}: missed ${label}`);
        }
      }
    }
    lines.push(`[${p.split}] ${p.name}: ${row.length ? row.join('; ') : 'all right'}`);
  }
  return { per, lines };
}

function report(title: string, papers: readonly Labelled[]): string[] {
  const { per, lines } = score(papers);
  const total = Object.values(per).reduce((s, x) => ({ tp: s.tp + x.tp, fp: s.fp + x.fp, fn: s.fn + x.fn }), {
    tp: 0,
    fp: 0,
    fn: 0,
  });
  console.log(`${title}: ${papers.length} papers, ${total.tp + total.fn} labelled settings\n`);
  console.log('setting               labels  TP  FP  FN  precision  recall');
  for (const key of SETTING_KEYS) {
    const x = per[key];
    if (x.tp + x.fp + x.fn === 0) continue;
    console.log(
      `${key.padEnd(22)}${String(x.tp + x.fn).padStart(6)}${String(x.tp).padStart(4)}${String(x.fp).padStart(4)}${String(x.fn).padStart(4)}  ${pct(x.tp, x.tp + x.fp).padStart(9)}  ${pct(x.tp, x.tp + x.fn).padStart(6)}`,
    );
  }
  console.log(
    `${'all'.padEnd(22)}${String(total.tp + total.fn).padStart(6)}${String(total.tp).padStart(4)}${String(total.fp).padStart(4)}${String(total.fn).padStart(4)}  ${pct(total.tp, total.tp + total.fp).padStart(9)}  ${pct(total.tp, total.tp + total.fn).padStart(6)}\n`,
  );
  return lines;
}

const dev = data.papers.filter((p) => p.split === 'dev');
const test = data.papers.filter((p) => p.split === 'test');
report('dev (the patterns were tuned on these)', dev);
report('test (held out: labelled before the extractor was run on them)', test);
for (const l of report('all', data.papers)) console.log(l);
