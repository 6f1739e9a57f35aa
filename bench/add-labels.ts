/**
 * Community corrections into the training data in one command: the lines `grpo-digest export-labels` writes
 * (moderators' /paper mark, one JSON per line) are appended to test/fixtures/classifier/community.jsonl, a dev
 * set that bench/train-classifier.ts learns from. Deduplicated by id: a paper already there keeps one line, the
 * newest mark's (a moderator who changed their mind wins). Papers of the test days and the curated holdouts
 * are refused, so a correction can never leak an evaluation paper into training; papers of the dev days are
 * skipped too (their labels were read twice and stay as they are).
 *
 *   grpo-digest export-labels > marks.jsonl && npx tsx bench/add-labels.ts marks.jsonl
 *   grpo-digest export-labels | npx tsx bench/add-labels.ts -
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { loadSet, UNSEEN } from './classify.ts';
import { DAY_SPLIT, days, loadDay } from './classify-days.ts';

export const COMMUNITY = fileURLToPath(new URL('../test/fixtures/classifier/community.jsonl', import.meta.url));

/** One line of `export-labels`. */
export const CommunityLabel = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  abstract: z.string(),
  label: z.enum(['in', 'out']),
  reason: z.string(),
  source: z.string().default('moderator'),
  set_by: z.string().optional(),
  set_at: z.string().optional(),
});
export type CommunityLabel = z.infer<typeof CommunityLabel>;

export function loadCommunity(file = COMMUNITY): CommunityLabel[] {
  if (!existsSync(file)) return [];
  return parseLines(readFileSync(file, 'utf8'));
}

function parseLines(text: string): CommunityLabel[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const parsed = CommunityLabel.safeParse(JSON.parse(l));
      if (!parsed.success) throw new Error(`line ${i + 1}: ${parsed.error.issues.map((x) => x.message).join('; ')}`);
      return parsed.data;
    });
}

export interface AddResult {
  added: number;
  updated: number;
  unchanged: number;
  /** Ids of evaluation papers (test days, curated holdouts): never added. */
  refused: string[];
  /** Already labelled on a dev day. */
  onDevDays: number;
  lines: CommunityLabel[];
}

/** The community set after adding `incoming` to `existing`, and what happened to each line. */
export function addLabels(
  existing: readonly CommunityLabel[],
  incoming: readonly CommunityLabel[],
  held: { evaluation: ReadonlySet<string>; dev: ReadonlySet<string> },
): AddResult {
  const byId = new Map(existing.map((l) => [l.id, l]));
  const r: AddResult = { added: 0, updated: 0, unchanged: 0, refused: [], onDevDays: 0, lines: [] };
  for (const l of incoming) {
    if (held.evaluation.has(l.id)) {
      r.refused.push(l.id);
      continue;
    }
    if (held.dev.has(l.id)) {
      r.onDevDays++;
      continue;
    }
    const old = byId.get(l.id);
    if (!old) r.added++;
    else if ((l.set_at ?? '') > (old.set_at ?? '') && (old.label !== l.label || old.reason !== l.reason)) r.updated++;
    else {
      r.unchanged++;
      continue;
    }
    byId.set(l.id, l);
  }
  r.lines = [...byId.values()];
  return r;
}

/** Ids no training may see (test and fresh days, curated holdouts), and ids the dev days already label. */
export function heldIds(): { evaluation: Set<string>; dev: Set<string> } {
  const evaluation = new Set<string>();
  const dev = new Set<string>();
  for (const d of days()) for (const p of loadDay(d)) (DAY_SPLIT[d] === 'dev' ? dev : evaluation).add(p.id);
  for (const set of UNSEEN) for (const p of loadSet(set)) evaluation.add(p.id);
  return { evaluation, dev };
}

function main(): void {
  const input = process.argv[2];
  if (!input) throw new Error('usage: add-labels.ts <export-labels output | ->');
  const incoming = parseLines(readFileSync(input === '-' ? 0 : input, 'utf8'));
  const r = addLabels(loadCommunity(), incoming, heldIds());
  writeFileSync(COMMUNITY, r.lines.map((l) => JSON.stringify(l)).join('\n') + (r.lines.length ? '\n' : ''));
  console.log(
    `${incoming.length} labels read: ${r.added} added, ${r.updated} updated, ${r.unchanged} already there, ${r.onDevDays} already on a dev day, ${r.refused.length} refused (evaluation papers${r.refused.length ? `: ${r.refused.join(', ')}` : ''}); ${r.lines.length} community labels now. Retrain: npx tsx bench/train-classifier.ts`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
