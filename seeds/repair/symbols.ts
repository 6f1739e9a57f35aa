/**
 * Priors (natural-log probability per token) for characters the word
 * dictionary does not cover: punctuation, symbols, emoji and rare CJK. They
 * score a boundary token on its own (no tag transition); for scale, a common
 * single-character word costs about -5 with its transition, a rare one -15.
 *
 * Only characters that can lose a byte matter here (their UTF-8 contains one
 * of the dropped bytes); the hand-set values are rough usage rates in Chinese
 * technical writing.
 */

/** Characters with a hand-set prior. */
const KNOWN: ReadonlyMap<string, number> = new Map([
  // CJK punctuation (E3 80 xx).
  ['、', -5.5],
  ['」', -9.5],
  ['『', -10.5],
  ['』', -10.5],
  ['【', -10],
  ['〝', -14],
  ['〞', -14],
  // Full-width forms (EF BC xx).
  ['！', -8],
  ['－', -10.5],
  ['．', -11],
  ['／', -10.5],
  ['０', -11],
  ['＝', -11],
  ['＞', -11.5],
  // General punctuation (E2 80 xx).
  ['”', -7],
  ['‐', -12],
  ['\u200d', -14], // zero-width joiner, inside emoji sequences
  // Math and arrows seen in paper notes.
  ['∞', -11.5],
  ['∏', -12.5],
  ['∝', -12.5],
  ['←', -11.5],
  ['ℝ', -12.5],
  ['●', -10.5],
  // Emoji and dingbats common in notes; the ones that cannot lose a byte need no entry.
  ...[
    '🔍',
    '🎯',
    '🏆',
    '📝',
    '👍',
    '🤝',
    '🎉',
    '🔎',
    '📍',
    '🔐',
    '🔬',
    '🔭',
    '📎',
    '💭',
    '🐛',
    '🎓',
    '❌',
    '⭐',
    '➡',
    '❤',
    '✍',
  ].map((e): [string, number] => [e, -13]),
]);

/** Fallback priors by kind of character, for anything not in the table. */
const BY_KIND: readonly [RegExp, number][] = [
  [/^[\u4e00-\u9fff]$/u, -22], // CJK unified ideographs missing from the dictionary
  [/^\p{Emoji_Presentation}$/u, -18],
  [/^[\u{1d400}-\u{1d7ff}]$/u, -18], // mathematical alphanumerics (𝑅, 𝑾 ...)
  [/^[\u3400-\u4dbf\uf900-\ufaff]$/u, -25], // CJK extension A, compatibility ideographs
  [/^[\p{P}\p{Sm}]$/u, -19],
  [/^[\p{Script=Latin}\p{Script=Greek}]$/u, -19],
];

/** The lowest prior: rare scripts, CJK extension B and later, control-like format characters. */
const RARE = -27;

/** Prior for a character that is not a dictionary word. U+FFFD is not scored here (see lattice.ts). */
export function symbolPrior(ch: string): number {
  const known = KNOWN.get(ch);
  if (known !== undefined) return known;
  for (const [pattern, score] of BY_KIND) if (pattern.test(ch)) return score;
  return RARE;
}
