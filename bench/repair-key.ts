/**
 * The answer key of the Chinese notes' repair (test/fixtures/repair/key.jsonl): built by reading, and the
 * measurement of the repair against it.
 *
 *   npx tsx bench/repair-key.ts show 002 <entryId>   the note's damaged characters, numbered, with candidates
 *   npx tsx bench/repair-key.ts list                  the notes of 002/003 (file, index, entryId)
 *   npx tsx bench/repair-key.ts measure [--misses]    the repair against the key, per split
 *
 * `show` prints the note with every damaged character as ⟦n:a|b|c⟧: its plausible candidates (general
 * frequency above PLAUSIBLE) in code-point order, so the display does not suggest the repair's choice; a
 * reader writes the right one per number (key.jsonl stores the resulting text).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePaperList } from '../seeds/parse/paper-list.ts';
import { damagedSlots } from '../seeds/repair/index.ts';
import { bundledModel } from '../seeds/repair/model.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = `${ROOT}seeds/data/`;
export const KEY_PATH = `${ROOT}test/fixtures/repair/key.jsonl`;

export interface KeyNote {
  file: '002' | '003';
  entryId: string;
  split: 'dev' | 'test';
  /** The note as a reader restored it: each damaged character decided from the sentence. */
  text: string;
  /** Damaged characters where reading allows more than one (offset in code points -> the accepted characters). */
  either?: Record<string, string>;
  /** Damaged characters whose right reading is none of the candidates the input allows (offsets). */
  lost?: number[];
}

/** The damaged notes of 002/003 in file order: entryId -> the note's mojibake as the parser hands it to the repair. */
export function damagedNotes(): { file: '002' | '003'; entryId: string; damaged: string }[] {
  const out: { file: '002' | '003'; entryId: string; damaged: string }[] = [];
  for (const file of ['002', '003'] as const) {
    const name = readdirSync(DATA).find((n) => n.startsWith(`${file}_`)) ?? '';
    // With a repair that changes nothing, a note's body is its mojibake exactly as the repair receives it.
    const papers = parsePaperList(readFileSync(DATA + name, 'utf8'), {
      file,
      repair: (damaged) => ({ text: damaged, restored: 0, unresolved: 0 }),
    });
    for (const paper of papers) if (paper.note) out.push({ file, entryId: paper.entryId, damaged: paper.note.body });
  }
  return out;
}

export const readKey = (): KeyNote[] =>
  readFileSync(KEY_PATH, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as KeyNote);

const PLAUSIBLE = -11;

function show(file: string, entryId: string): void {
  const note = damagedNotes().find((n) => n.file === file && n.entryId === entryId);
  if (note === undefined) throw new Error(`no note ${file} ${entryId}`);
  const model = bundledModel();
  const { text, slots } = damagedSlots(note.damaged);
  const chars = Array.from(text);
  let out = '';
  let n = 0;
  const byOffset = new Map(slots.map((s) => [s.offset, s]));
  chars.forEach((ch, i) => {
    const slot = byOffset.get(i);
    if (slot === undefined) return void (out += ch);
    const plausible = slot.candidates.filter((c) => (model.charLogProbs.get(c) ?? -99) > PLAUSIBLE).sort();
    const shown = plausible.length > 0 ? plausible : slot.candidates;
    out += shown.length === 1 ? `⟦${n}:${shown[0]}⟧` : `⟦${n}:${shown.join('|')}⟧`;
    n += 1;
  });
  process.stdout.write(`${out}\n`);
}

/**
 * Writes one note's key line from a reader's answers: one character per damaged slot, in order (whitespace
 * ignored); `[ab]` where reading allows either (the first is written to the text; the measure accepts both);
 * `{c}` where the right character is none of the candidates (the input lost more than the dropped bytes).
 * Prints the restored text so the reader checks it reads right.
 */
function freeze(file: string, entryId: string, split: string, answers: string): void {
  const note = damagedNotes().find((n) => n.file === file && n.entryId === entryId);
  if (note === undefined) throw new Error(`no note ${file} ${entryId}`);
  const { text, slots } = damagedSlots(note.damaged);
  const picks = [...answers.replace(/\s+/gu, '').matchAll(/\[([^\]]+)\]|\{(.)\}|(.)/gsu)].map(
    (m) => m[1] ?? (m[2] === undefined ? (m[3] ?? '') : `{${m[2]}`),
  );
  if (picks.length !== slots.length) throw new Error(`${slots.length} slots, ${picks.length} answers`);
  const chars = Array.from(text);
  const either: Record<string, string> = {};
  const lost: number[] = [];
  slots.forEach((slot, k) => {
    if (picks[k]?.startsWith('{')) {
      chars[slot.offset] = picks[k].slice(1);
      return void lost.push(slot.offset);
    }
    const pick = Array.from(picks[k] ?? '');
    for (const ch of pick)
      if (!slot.candidates.includes(ch))
        throw new Error(`slot ${k}: ${ch} is not a candidate (${slot.candidates.join('')})`);
    chars[slot.offset] = pick[0] ?? '';
    if (pick.length > 1) either[slot.offset] = pick.join('');
  });
  const line = {
    file,
    entryId,
    split,
    text: chars.join(''),
    ...(Object.keys(either).length > 0 && { either }),
    ...(lost.length > 0 && { lost }),
  };
  const kept = existsSync(KEY_PATH) ? readKey().filter((k) => !(k.file === file && k.entryId === entryId)) : [];
  writeFileSync(KEY_PATH, [...kept, line].map((k) => JSON.stringify(k)).join('\n') + '\n');
  process.stdout.write(`${line.text}\n`);
}

export interface KeyFigures {
  notes: number;
  damaged: number;
  correct: number;
  rate: number;
  /** 不 where the reader has another character / another character where the reader has 不. */
  buInserted: number;
  buRemoved: number;
  /** Damaged characters the repair marks uncertain, and how many of them are wrong. */
  uncertain: number;
  uncertainWrong: number;
  /** Notes with at least one wrong character, and of those, notes the repair marks uncertain. */
  notesWithError: number;
  notesWithErrorMarked: number;
  misses: string[];
}

/** The repair against the key, over the notes of one split. */
export function measureKey(split: 'dev' | 'test', repair = damagedSlots): KeyFigures {
  const damaged = new Map(damagedNotes().map((n) => [`${n.file} ${n.entryId}`, n.damaged]));
  const f: KeyFigures = {
    notes: 0,
    damaged: 0,
    correct: 0,
    rate: 0,
    buInserted: 0,
    buRemoved: 0,
    uncertain: 0,
    uncertainWrong: 0,
    notesWithError: 0,
    notesWithErrorMarked: 0,
    misses: [],
  };
  for (const key of readKey().filter((k) => k.split === split)) {
    const input = damaged.get(`${key.file} ${key.entryId}`);
    if (input === undefined) throw new Error(`key note not in the seeds: ${key.file} ${key.entryId}`);
    const result = repair(input);
    const got = Array.from(result.text);
    const want = Array.from(key.text);
    if (got.length !== want.length) throw new Error(`${key.entryId}: length ${got.length} vs key ${want.length}`);
    f.notes += 1;
    let wrong = 0;
    for (const slot of result.slots) {
      const expected = want[slot.offset] ?? '';
      const accepted = key.either?.[String(slot.offset)] ?? expected;
      const ch = got[slot.offset] ?? '';
      const ok = accepted.includes(ch);
      f.damaged += 1;
      if (ok) f.correct += 1;
      else {
        wrong += 1;
        f.misses.push(`${expected}->${ch} (${want.slice(Math.max(0, slot.offset - 5), slot.offset + 5).join('')})`);
      }
      if (ch === '不' && !accepted.includes('不')) f.buInserted += 1;
      if (expected === '不' && ch !== '不') f.buRemoved += 1;
      if (slot.uncertain) {
        f.uncertain += 1;
        if (!ok) f.uncertainWrong += 1;
      }
    }
    if (wrong > 0) {
      f.notesWithError += 1;
      if ((result.uncertain ?? 0) > 0) f.notesWithErrorMarked += 1;
    }
  }
  f.rate = f.damaged === 0 ? 1 : f.correct / f.damaged;
  return f;
}

function measure(showMisses: boolean): void {
  for (const split of ['dev', 'test'] as const) {
    const f = measureKey(split);
    process.stdout.write(
      `${split}: ${f.notes} notes, ${f.damaged} damaged, ${f.correct} right (${(100 * f.rate).toFixed(2)}%), ` +
        `不 inserted ${f.buInserted}, removed ${f.buRemoved}; uncertain ${f.uncertain} (${f.uncertainWrong} wrong); ` +
        `notes with an error ${f.notesWithError} (${f.notesWithErrorMarked} marked uncertain)\n`,
    );
    if (showMisses) process.stdout.write(`  ${f.misses.join('\n  ')}\n`);
  }
}

function list(): void {
  damagedNotes().forEach((n, i) => process.stdout.write(`${n.file} ${i} ${n.entryId}\n`));
}

const [command, ...args] = process.argv.slice(2);
const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (!isMain) {
  // Imported (bench/repair.ts): no command line of its own.
} else if (command === 'show') show(args[0] ?? '', args[1] ?? '');
else if (command === 'list') list();
else if (command === 'measure') measure(args.includes('--misses'));
else if (command === 'freeze') freeze(args[0] ?? '', args[1] ?? '', args[2] ?? '', args[3] ?? '');
