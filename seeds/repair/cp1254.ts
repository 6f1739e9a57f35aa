/**
 * Windows-1254 (Turkish) code page: byte <-> character tables, and the set of
 * bytes the damaged seed files lost.
 *
 * 0x00-0x7F is ASCII and 0xA0-0xFF is Latin-1 except for six Turkish letters.
 * 0x80-0x9F follows the Windows table below; five of its entries plus 0x8E
 * and 0x9E (Ž/ž in cp1252, absent from cp1254) are undefined. The table was
 * checked against Python's `cp1254` codec (the undefined bytes are exactly
 * 0x81 0x8D 0x8E 0x8F 0x90 0x9D 0x9E).
 */

/** Code points for 0x80..0x9F; -1 = undefined in cp1254. */
const HIGH_CONTROL_RANGE: readonly number[] = [
  0x20ac,
  -1,
  0x201a,
  0x0192,
  0x201e,
  0x2026,
  0x2020,
  0x2021, // 80-87
  0x02c6,
  0x2030,
  0x0160,
  0x2039,
  0x0152,
  -1,
  -1,
  -1, // 88-8F
  -1,
  0x2018,
  0x2019,
  0x201c,
  0x201d,
  0x2022,
  0x2013,
  0x2014, // 90-97
  0x02dc,
  0x2122,
  0x0161,
  0x203a,
  0x0153,
  -1,
  -1,
  0x0178, // 98-9F
];

/** The Latin-1 positions cp1254 reassigns to Turkish letters. */
const TURKISH: ReadonlyMap<number, number> = new Map([
  [0xd0, 0x011e], // Ğ
  [0xdd, 0x0130], // İ
  [0xde, 0x015e], // Ş
  [0xf0, 0x011f], // ğ
  [0xfd, 0x0131], // ı
  [0xfe, 0x015f], // ş
]);

/** byte -> character, `undefined` for bytes cp1254 cannot represent. */
export const CP1254_DECODE: readonly (string | undefined)[] = Array.from({ length: 256 }, (_, b) => {
  if (b < 0x80) return String.fromCharCode(b);
  if (b < 0xa0) {
    const cp = HIGH_CONTROL_RANGE[b - 0x80] ?? -1;
    return cp < 0 ? undefined : String.fromCharCode(cp);
  }
  return String.fromCharCode(TURKISH.get(b) ?? b);
});

/** character -> byte, for every character cp1254 can represent. */
export const CP1254_ENCODE: ReadonlyMap<string, number> = new Map(
  CP1254_DECODE.flatMap((ch, b) => (ch === undefined ? [] : [[ch, b] as [string, number]])),
);

/** Bytes cp1254 leaves undefined: a cp1254 decode that skips errors drops them. */
export const CP1254_UNDEFINED: readonly number[] = CP1254_DECODE.flatMap((ch, b) => (ch === undefined ? [b] : []));

/**
 * Bytes missing from the seed files. Besides the seven undefined bytes, 0xAD
 * (soft hyphen, U+00AD) never occurs in files 002/003 although it is a common
 * UTF-8 continuation byte (训 = E8 AE AD shows up as `è®`): the pipeline that
 * produced the seeds stripped soft hyphens too. The repair treats all eight as
 * possible dropped bytes; a soft hyphen that is still present is read as 0xAD.
 */
export const DROPPED_BYTES: readonly number[] = [...CP1254_UNDEFINED, 0xad];
