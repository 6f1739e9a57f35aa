/**
 * Repair of the seed notes' double-encoded Chinese (files 002 and 003).
 *
 * The notes' UTF-8 bytes were decoded as Windows-1254 and saved again as
 * UTF-8; bytes cp1254 cannot represent were dropped (see cp1254.ts for the
 * exact set). Every character keeps its lead byte, so each damaged character is
 * still visible as a UTF-8 sequence that is short of continuation bytes; the
 * repair lists the characters it may have been (utf8.ts) and picks the most
 * likely reading of the whole run with a word-lattice language model
 * (lattice.ts, model.ts).
 */
import { contextBonus } from './context.ts';
import { bestPath, REPLACEMENT, type RunContext } from './lattice.ts';
import { bundledModel, type WordModel } from './model.ts';
import { candidates, splitPieces, type Piece, type Unit } from './utf8.ts';

export interface RepairResult {
  text: string;
  /** Characters whose dropped byte(s) were filled in. */
  restored: number;
  /** Characters that could not be restored, marked with U+FFFD (existing U+FFFD included). */
  unresolved: number;
  /**
   * Restored characters whose choice was a close call: the best reading with another character there
   * scores within UNCERTAIN_MARGIN of the chosen one. They are shown as restored but counted, so a
   * note that has any is not presented as clean.
   */
  uncertain: number;
}

/** Log-score gap (nats) under which a restored character counts as uncertain; tuned on the key's dev notes. */
export const UNCERTAIN_MARGIN = 3;

const countReplacements = (text: string): number => text.split(REPLACEMENT).length - 1;

/**
 * The characters each unit of a mojibake run may have been. A damaged last
 * unit may also be a cut-off character (U+FFFD) when the run ends the text,
 * and is one when a U+FFFD follows it.
 */
export function slotsFor(
  units: readonly Unit[],
  context: { endsText: boolean; beforeReplacement: boolean },
): string[][] {
  const last = units.length - 1;
  return units.map((unit, k) => {
    const damagedUnit = unit.bytes.length < unit.expected;
    if (k === last && damagedUnit && context.beforeReplacement) return [REPLACEMENT];
    const found = candidates(unit);
    if (found.length === 0) return [REPLACEMENT];
    if (k === last && damagedUnit && context.endsText) found.push(REPLACEMENT);
    return found;
  });
}

/** The (still damaged) text after piece `index`, enough for a clause. */
function textAfter(pieces: readonly Piece[], index: number): string {
  let out = '';
  for (let k = index + 1; k < pieces.length && out.length < 200; k++) out += pieces[k]?.text ?? '';
  return out;
}

/** True when nothing but whitespace follows, i.e. the run ends the text. */
export const endsText = (next: Piece | undefined): boolean =>
  next === undefined || (next.kind === 'text' && next.text.trim() === '');

const LATIN_BEFORE = /[A-Za-z0-9] ?$/;
const LATIN_AFTER = /^ ?[A-Za-z0-9]/;

/** Whether a Latin-script word (a term such as GRPO) sits right before / after a run. */
export function runContext(prev: Piece | undefined, next: Piece | undefined): RunContext {
  return {
    afterLatin: prev?.kind === 'text' && LATIN_BEFORE.test(prev.text),
    beforeLatin: next?.kind === 'text' && LATIN_AFTER.test(next.text),
  };
}

/**
 * Repairs cp1254-mojibake text: re-encodes to the original bytes, restores each
 * dropped byte by choosing the most likely candidate, and marks what cannot be
 * restored with U+FFFD.
 *
 * Text that is not mojibake passes through unchanged. A character cut off at
 * the end of the text is marked U+FFFD unless a candidate reads well there; one
 * cut off right before an existing U+FFFD merges with it into a single mark.
 */
export function repairMojibake(damaged: string): RepairResult {
  return repairWithModel(damaged, bundledModel());
}

/** A damaged character of the input: where it stands in the repaired text (code points), what it may be, what was chosen. */
export interface DamagedSlot {
  offset: number;
  candidates: string[];
  chosen: string;
  /** The choice is a close call (see uncertainty below); absent = sure. */
  uncertain?: boolean;
}

/** repairMojibake with a given language model (tests, build-model.ts). */
export function repairWithModel(damaged: string, model: WordModel): RepairResult {
  const { text, restored, unresolved, uncertain } = repairDetailed(damaged, model);
  return { text, restored, unresolved, uncertain };
}

/** The repair with every damaged character listed (the answer key's tool, bench/repair-key.ts). */
export function damagedSlots(
  damaged: string,
  model: WordModel = bundledModel(),
): RepairResult & { slots: DamagedSlot[] } {
  return repairDetailed(damaged, model);
}

function repairDetailed(damaged: string, model: WordModel): RepairResult & { slots: DamagedSlot[] } {
  const pieces = splitPieces(damaged);
  const slotsOut: DamagedSlot[] = [];
  let length = 0;
  let text = '';
  let restored = 0;
  let unresolved = 0;
  let uncertain = 0;
  let skipReplacement = false;
  pieces.forEach((piece, index) => {
    if (piece.kind === 'text') {
      const rest = skipReplacement ? piece.text.slice(REPLACEMENT.length) : piece.text;
      skipReplacement = false;
      text += rest;
      length += Array.from(rest).length;
      unresolved += countReplacements(rest);
      return;
    }
    const next = pieces[index + 1];
    const beforeReplacement = next?.kind === 'text' && next.text.startsWith(REPLACEMENT);
    const last = piece.units.length - 1;
    const slots = slotsFor(piece.units, { endsText: endsText(next), beforeReplacement });
    const bonus = contextBonus(slots, model, textAfter(pieces, index));
    const path = bestPath(slots, model, runContext(pieces[index - 1], next), { bonus, margins: true });
    piece.units.forEach((unit, k) => {
      const ch = path.chars[k] ?? REPLACEMENT;
      const damagedUnit = unit.bytes.length < unit.expected;
      const close = damagedUnit && ch !== REPLACEMENT && (path.margins?.[k] ?? Infinity) < UNCERTAIN_MARGIN;
      if (ch === REPLACEMENT) unresolved += 1;
      else if (damagedUnit) restored += 1;
      if (close) uncertain += 1;
      if (damagedUnit)
        slotsOut.push({ offset: length, candidates: slots[k] ?? [], chosen: ch, ...(close && { uncertain: true }) });
      text += ch;
      length += 1;
    });
    const lastUnit = piece.units[last];
    skipReplacement = beforeReplacement && lastUnit !== undefined && lastUnit.bytes.length < lastUnit.expected;
  });
  return { text, restored, unresolved, uncertain, slots: slotsOut };
}

export { damageLikeSeeds } from './damage.ts';
