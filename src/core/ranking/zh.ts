/**
 * Chinese word segmentation for queries (pure): the most probable split of a run of Han characters
 * into dictionary words (unigram model over word counts, the jieba dictionary the project ships in
 * seeds/repair/zh-model.txt), with the glossary and question words added as known words so they come
 * out whole. Indexed Chinese stays character bigrams; segmenting the query keeps its bigrams inside
 * words (训练时熵 -> 训练 / 时 / 熵, not 练时 or 时熵).
 */
export interface ZhDictionary {
  /** log P(word) for known words. */
  logp: ReadonlyMap<string, number>;
  /** Longest word, in characters. */
  maxLength: number;
  /** log P of a character that is no known word. */
  unknown: number;
}

/** A dictionary from word counts; `extra` words get the count of a common word so they win ties. */
export function zhDictionary(counts: ReadonlyMap<string, number>, extra: Iterable<string> = []): ZhDictionary {
  const all = new Map(counts);
  for (const w of extra) all.set(w, Math.max(all.get(w) ?? 0, 50_000));
  let total = 0;
  let maxLength = 1;
  for (const [w, n] of all) {
    total += n;
    maxLength = Math.max(maxLength, [...w].length);
  }
  const logp = new Map<string, number>();
  for (const [w, n] of all) logp.set(w, Math.log(n / total));
  return { logp, maxLength, unknown: Math.log(0.5 / total) };
}

export function segment(run: string, dict: ZhDictionary): string[] {
  const chars = [...run];
  const best = new Float64Array(chars.length + 1).fill(-Infinity);
  const from = new Int32Array(chars.length + 1);
  best[0] = 0;
  for (let end = 1; end <= chars.length; end++) {
    for (let len = 1; len <= Math.min(dict.maxLength, end); len++) {
      const word = chars.slice(end - len, end).join('');
      const p = dict.logp.get(word) ?? (len === 1 ? dict.unknown : undefined);
      if (p === undefined) continue;
      const score = best[end - len]! + p;
      if (score > best[end]!) {
        best[end] = score;
        from[end] = end - len;
      }
    }
  }
  const out: string[] = [];
  for (let end = chars.length; end > 0; end = from[end]!) out.unshift(chars.slice(from[end]!, end).join(''));
  // Characters no word covers stay together (an unknown word), so its bigrams still match the index.
  return out.reduce<string[]>((acc, w) => {
    const prev = acc.at(-1);
    if (prev !== undefined && !dict.logp.has(w) && !dict.logp.has(prev) && [...w].length === 1)
      acc[acc.length - 1] = prev + w;
    else acc.push(w);
    return acc;
  }, []);
}
