/**
 * Reading cp1254 mojibake back into UTF-8 units, and listing what a damaged
 * unit may originally have been.
 */
import { CP1254_ENCODE, DROPPED_BYTES } from './cp1254.ts';

/** One UTF-8 character as recovered from the mojibake: its lead byte and the continuation bytes that survived. */
export interface Unit {
  bytes: number[];
  /** Length of the complete UTF-8 sequence the lead byte announces. */
  expected: number;
}

/** A piece of input text: passed through as is, or a run of mojibake to repair (`text` = the run as given). */
export type Piece = { kind: 'text'; text: string } | { kind: 'mojibake'; text: string; units: Unit[] };

const isContinuation = (b: number): boolean => b >= 0x80 && b <= 0xbf;

const dropped = new Set(DROPPED_BYTES);
const encoder = new TextEncoder();
const loseCache = new Map<string, boolean>();

/** True when the character's UTF-8 holds a byte the seeds lose: the damage touches it, and it can be a repair candidate. */
export function canLoseByte(ch: string): boolean {
  let known = loseCache.get(ch);
  if (known === undefined) {
    known = encoder
      .encode(ch)
      .slice(1)
      .some((b) => dropped.has(b));
    loseCache.set(ch, known);
  }
  return known;
}

/** Sequence length announced by a lead byte; 0 when the byte cannot start a multi-byte sequence. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * Parses the cp1254 bytes of a run of non-ASCII characters as UTF-8 with
 * dropped continuation bytes. Returns undefined when the bytes cannot be such
 * mojibake (a continuation byte with no lead, or an impossible lead byte).
 */
export function parseUnits(bytes: readonly number[]): Unit[] | undefined {
  const units: Unit[] = [];
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    const expected = sequenceLength(lead);
    if (expected === 0) return undefined;
    const unit: Unit = { bytes: [lead], expected };
    i += 1;
    while (i < bytes.length && unit.bytes.length < expected && isContinuation(bytes[i] ?? 0)) {
      unit.bytes.push(bytes[i] ?? 0);
      i += 1;
    }
    units.push(unit);
  }
  return units;
}

/**
 * Continuation bytes that read as ordinary typography after a Latin letter
 * (’ ” – — … • · ° ® ™ « » NBSP ...): "café”" is E9 94, which parses as a
 * damaged 锁, but is far likelier to be just what it says.
 */
const TYPOGRAPHIC = new Set([
  0x80, 0x85, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x99, 0xa0, 0xa1, 0xa3, 0xa5, 0xa7, 0xa9, 0xab, 0xae, 0xb0,
  0xb1, 0xb2, 0xb3, 0xb5, 0xb6, 0xb7, 0xbb, 0xbf,
]);

const hasComplete = (units: readonly Unit[]): boolean =>
  units.some((u) => u.bytes.length > 1 && u.bytes.length === u.expected);

/** A run that could be mojibake and is not better read as accented Latin with typography. */
const looksDamaged = (units: readonly Unit[]): boolean =>
  hasComplete(units) || units.some((u) => u.bytes.slice(1).some((b) => !TYPOGRAPHIC.has(b)));

/**
 * Splits text into pass-through pieces and mojibake runs. A mojibake run is a
 * maximal run of non-ASCII characters that cp1254 can encode, whose bytes parse
 * as (damaged) UTF-8 and contain at least one continuation byte. A run with no
 * complete multi-byte sequence whose continuation bytes are all typographic
 * (see TYPOGRAPHIC) is taken for mojibake only if some other run of the text is
 * plainly mojibake; so "café” — naïve" is left alone, `è®º` and `ä¸` are not.
 */
export function splitPieces(text: string): Piece[] {
  const pieces: Piece[] = [];
  let plain = '';
  let damagedText = false;
  const chars = Array.from(text);
  let i = 0;
  while (i < chars.length) {
    const start = i;
    const bytes: number[] = [];
    for (; i < chars.length; i++) {
      const b = CP1254_ENCODE.get(chars[i] ?? '');
      if (b === undefined || b < 0x80) break;
      bytes.push(b);
    }
    if (i === start) {
      plain += chars[i] ?? '';
      i += 1;
      continue;
    }
    const run = chars.slice(start, i).join('');
    const units = parseUnits(bytes);
    if (units === undefined || !units.some((u) => u.bytes.length > 1)) {
      plain += run;
      continue;
    }
    damagedText ||= looksDamaged(units);
    if (plain) pieces.push({ kind: 'text', text: plain });
    plain = '';
    pieces.push({ kind: 'mojibake', text: run, units });
  }
  if (plain) pieces.push({ kind: 'text', text: plain });
  return damagedText ? pieces : [{ kind: 'text', text }];
}

/** Decodes one complete UTF-8 sequence to a character, or undefined if it is malformed (overlong, surrogate, out of range). */
export function decodeSequence(bytes: readonly number[]): string | undefined {
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = bytes;
  let cp: number;
  if (bytes.length === 2) cp = ((b0 & 0x1f) << 6) | (b1 & 0x3f);
  else if (bytes.length === 3) cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
  else if (bytes.length === 4) cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
  else return undefined;
  const min = bytes.length === 2 ? 0x80 : bytes.length === 3 ? 0x800 : 0x10000;
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  return String.fromCodePoint(cp);
}

/** Characters that can appear in real text: assigned, not a control, surrogate or private-use code point. */
const PLAUSIBLE = /^[^\p{Cn}\p{Cc}\p{Cs}\p{Co}]$/u;

/** The characters a unit may have been: itself when complete, else every valid fill of its missing bytes with dropped bytes. */
export function candidates(unit: Unit): string[] {
  const missing = unit.expected - unit.bytes.length;
  if (missing === 0) {
    const ch = decodeSequence(unit.bytes);
    return ch === undefined ? [] : [ch];
  }
  const found = new Set<string>();
  const [lead = 0, ...present] = unit.bytes;
  // Place `missing` dropped bytes among the continuation slots, keeping the survivors in order.
  const fill = (prefix: number[], rest: readonly number[], toPlace: number): void => {
    if (toPlace === 0 && rest.length === 0) {
      const ch = decodeSequence([lead, ...prefix]);
      if (ch !== undefined && PLAUSIBLE.test(ch)) found.add(ch);
      return;
    }
    if (toPlace > 0) for (const d of DROPPED_BYTES) fill([...prefix, d], rest, toPlace - 1);
    const [next, ...after] = rest;
    if (next !== undefined) fill([...prefix, next], after, toPlace);
  };
  fill([], present, missing);
  return [...found];
}
