/**
 * Turns free text into search terms. Pure: used when indexing (Chinese bigrams stored in
 * `papers.search_zh`) and when querying, so both sides always tokenise the same way.
 */

const CJK_RUN = /[\p{Script=Han}]+/gu;

/**
 * What Chinese text is indexed as: its bigrams and its single characters, so that a one-character
 * query (熵) finds text where the character sits anywhere.
 */
export function cjkTerms(text: string): string[] {
  const chars = Array.from(text.matchAll(CJK_RUN), ([run]) => Array.from(run)).flat();
  return [...new Set([...cjkBigrams(text), ...chars])];
}

/** The non-Chinese part of mixed text (the GSPO, AIME24, Qwen2.5 inside a Chinese note), for the English index. */
export function latinPart(text: string): string {
  return text
    .replace(CJK_RUN, ' ')
    .replace(/[^\p{L}\p{N}.+-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Chinese has no spaces, and Postgres' English parser does not segment it, so Chinese text is
 * indexed as overlapping character bigrams (a single character stays itself): 群组序列 -> 群组 组序 序列.
 */
export function cjkBigrams(text: string): string[] {
  const out = new Set<string>();
  for (const [run] of text.matchAll(CJK_RUN)) {
    const chars = Array.from(run);
    if (chars.length === 1) out.add(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  }
  return [...out];
}
