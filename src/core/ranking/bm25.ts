/**
 * The search index (pure, in memory): BM25F over a paper's fields, so a word found in two papers
 * outweighs a word found in two hundred, and a title counts more than an abstract. The index is
 * derived data: src/services/search loads it from Postgres (the source of truth) and keeps it current.
 *
 * Per term, a posting list of (document slot, term frequency per field). Scoring a query adds, per
 * term, idf(term) x weight x saturate(tf~), where tf~ sums the fields' frequencies, each weighted and
 * normalised by the field's length against its average (BM25F). Scores accumulate in a reused typed
 * array and the top of the ranking is kept in a small heap, so a common word over a large corpus
 * costs one pass over its postings. A document removed or replaced leaves a dead slot, skipped when
 * scoring and dropped when the index is compacted.
 */
import { indexTerms, pairs } from '../text/analyze.ts';
import type { ParsedQuery, QueryTerm } from './query.ts';

export interface IndexedPaper {
  id: number;
  title: string;
  abstract: string;
  /** English text of summaries and notes. */
  body: string;
  /** Chinese search terms (bigrams and characters), space-separated. */
  zh: string;
  /** Family names the classifier gave the paper. */
  families: string[];
  /** Days since 1970 of the publication date, for ties (newer first); 0 when unknown. */
  day: number;
}

const FIELDS = ['title', 'abstract', 'body', 'zh', 'tags'] as const;
type Field = (typeof FIELDS)[number];
const F = FIELDS.length;

/** Field weights and length normalisation (tuned on the dev questions, docs/BENCHMARKS.md). */
export const BM25 = {
  k1: 1.2,
  /**
   * A question about GRPO-family training (ParsedQuery.familyContext) scales a survey's score down,
   * so a paper on the method outranks a survey that mentions the same words. Scaling every family
   * paper up instead was measured and lost on the dev questions (many answers are not tagged with a
   * family: 0.944 -> 0.926 MRR@10 at x1.25), so only surveys move.
   */
  surveyFactor: 0.75,
  weight: { title: 3, abstract: 1, body: 0.5, zh: 1, tags: 2 } satisfies Record<Field, number>,
  b: { title: 0.5, abstract: 0.75, body: 0.75, zh: 0.5, tags: 0 } satisfies Record<Field, number>,
};

class Postings {
  slots = new Int32Array(2);
  /** Term frequency per field, packed: title | abstract << 8 | body << 16 (a byte each, capped at 255) | zh << 24 | tags << 28 (4 bits each). */
  tf = new Uint32Array(2);
  length = 0;
  live = 0;
  push(slot: number, packed: number): void {
    if (this.length === this.slots.length) {
      this.slots = grow(this.slots, this.length * 2);
      this.tf = grow(this.tf, this.length * 2);
    }
    this.slots[this.length] = slot;
    this.tf[this.length++] = packed;
    this.live++;
  }
}

function grow<T extends Int32Array | Uint32Array | Uint16Array | Uint8Array | Float32Array | Float64Array>(
  a: T,
  size: number,
): T {
  const out = new (a.constructor as new (n: number) => T)(size);
  out.set(a);
  return out;
}

const SURVEY = 1;
const SURVEY_TITLE = /\b(?:survey|review|overview)\b|综述/i;

export interface Ranked {
  id: number;
  score: number;
}

export class SearchIndex {
  private readonly termIds = new Map<string, number>();
  /** The term of each term id (termIds read backwards), for query expansion. */
  private readonly termOf: string[] = [];
  private readonly postings: Postings[] = [];
  private readonly byInitial = new Map<string, string[]>();
  private slots = 0;
  private ids = new Int32Array(1024);
  private days = new Int32Array(1024);
  private alive = new Uint8Array(1024);
  /** Per slot: SURVEY when its title says it is a survey. */
  private kinds = new Uint8Array(1024);
  /** Field lengths, F per slot. */
  private lengths = new Uint16Array(1024 * F);
  /** Term ids per slot, for df bookkeeping when a paper is removed. */
  private docTerms: (Int32Array | undefined)[] = [];
  private readonly slotOf = new Map<number, number>();
  /** A word each term was indexed from (title or abstract), to show a corrected spelling as a word. */
  private readonly surfaces = new Map<number, string>();
  private readonly totals = new Float64Array(F);
  private dead = 0;
  /** w_f / (1 - b_f + b_f len/avg), F per slot; recomputed after the index changed. */
  private factor = new Float32Array(0);
  private stale = true;
  private scores = new Float64Array(0);
  private stamp = new Uint32Array(0);
  private generation = 0;
  private changes = 0;

  get size(): number {
    return this.slotOf.size;
  }

  /** Changes with every add or remove: caches derived from the index compare it. */
  get version(): number {
    return this.changes;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Adds a paper, replacing what the index had for the same id. */
  add(p: IndexedPaper): void {
    this.remove(p.id);
    if (this.slots === this.ids.length) this.reserve(this.slots * 2);
    const slot = this.slots++;
    const title = indexTerms(p.title);
    const abstract = indexTerms(p.abstract);
    const body = indexTerms(p.body);
    const fieldTerms: readonly string[][] = [
      [...title.seq, ...title.joined, ...pairs(title.seq)],
      [...abstract.seq, ...abstract.joined],
      [...body.seq, ...body.joined],
      p.zh.split(/\s+/).filter(Boolean),
      p.families.flatMap((f) => indexTerms(f).seq),
    ];
    const counts = new Map<string, number[]>();
    fieldTerms.forEach((ts, f) => {
      for (const t of ts) {
        const c = counts.get(t);
        if (c) c[f]!++;
        else
          counts.set(
            t,
            FIELDS.map((_, i) => (i === f ? 1 : 0)),
          );
      }
      const len = Math.min(65_535, f === 0 ? title.seq.length : ts.length);
      this.lengths[slot * F + f] = len;
      this.totals[f]! += len;
    });
    const tids = new Int32Array(counts.size);
    let i = 0;
    for (const [t, c] of counts) {
      const known = this.postings.length;
      const tid = this.termId(t);
      if (tid === known && !t.includes(' ')) {
        // A new term's word as written, copied so that a long word does not keep its whole abstract alive.
        const at = title.seq.indexOf(t);
        const word = at >= 0 ? title.words[at] : abstract.words[abstract.seq.indexOf(t)];
        if (word) this.surfaces.set(tid, word.length > 12 ? [...word].join('') : word);
      }
      tids[i++] = tid;
      const high = Math.min(15, c[3]!) | (Math.min(15, c[4]!) << 4);
      this.postings[tid]!.push(
        slot,
        (Math.min(255, c[0]!) | (Math.min(255, c[1]!) << 8) | (Math.min(255, c[2]!) << 16) | (high << 24)) >>> 0,
      );
    }
    this.ids[slot] = p.id;
    this.days[slot] = p.day;
    this.alive[slot] = 1;
    this.kinds[slot] = SURVEY_TITLE.test(p.title) ? SURVEY : 0;
    this.docTerms[slot] = tids;
    this.slotOf.set(p.id, slot);
    this.stale = true;
    this.changes++;
  }

  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.alive[slot] = 0;
    for (let f = 0; f < F; f++) this.totals[f]! -= this.lengths[slot * F + f]!;
    for (const tid of this.docTerms[slot] ?? []) this.postings[tid]!.live--;
    this.docTerms[slot] = undefined;
    this.stale = true;
    this.changes++;
    if (++this.dead > 1000 && this.dead > this.slots / 4) this.compact();
  }

  /** How many papers have the term (live ones). */
  df(term: string): number {
    const tid = this.termIds.get(term);
    return tid === undefined ? 0 : this.postings[tid]!.live;
  }

  /** A word the term was indexed from ("quite" for quit), or the term itself. */
  surface(term: string): string {
    const tid = this.termIds.get(term);
    return (tid === undefined ? undefined : this.surfaces.get(tid)) ?? term;
  }

  /** Index terms starting with this letter: where a misspelled word looks for its correction. */
  vocabulary(initial: string): readonly string[] {
    return this.byInitial.get(initial) ?? [];
  }

  idf(term: string): number {
    const df = this.df(term);
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /**
   * Ranks the papers for a parsed query: any term may match (a long question still finds its best
   * partial matches); more matching rare terms rank higher. Ties go to the newer paper.
   */
  search(q: ParsedQuery, limit: number): { ranked: Ranked[]; total: number } {
    if (this.size === 0 || q.terms.length === 0 || limit <= 0) return { ranked: [], total: 0 };
    if (this.stale) this.refreshFactors();
    const gen = this.nextGeneration();
    const { scores, stamp, factor, alive } = this;
    const touched: number[] = [];
    const k1 = BM25.k1;
    for (const qt of q.terms) {
      const tid = this.termIds.get(qt.term);
      const list = tid === undefined ? undefined : this.postings[tid];
      if (!list || list.live === 0) continue;
      const idf = this.idf(qt.term) * qt.weight * (k1 + 1);
      const { slots, tf, length } = list;
      for (let i = 0; i < length; i++) {
        const slot = slots[i]!;
        if (alive[slot] === 0) continue;
        const packed = tf[i]!;
        const o = slot * F;
        const x =
          factor[o]! * (packed & 255) +
          factor[o + 1]! * ((packed >>> 8) & 255) +
          factor[o + 2]! * ((packed >>> 16) & 255) +
          factor[o + 3]! * ((packed >>> 24) & 15) +
          factor[o + 4]! * (packed >>> 28);
        if (stamp[slot] !== gen) {
          stamp[slot] = gen;
          scores[slot] = 0;
          touched.push(slot);
        }
        scores[slot]! += (idf * x) / (x + k1);
      }
    }
    const excluded = new Set<number>();
    for (const t of q.exclude) for (const slot of this.slotsWith(t)) excluded.add(slot);
    const required = q.phrases.map((phrase) => phrase.map((t) => new Set(this.slotsWith(t))));
    const heap = new TopK(
      limit,
      (a, b) => scores[a]! - scores[b]! || this.days[a]! - this.days[b]! || this.ids[b]! - this.ids[a]!,
    );
    let total = 0;
    const { kinds } = this;
    for (const slot of touched) {
      if (excluded.has(slot) || !required.every((phrase) => phrase.every((s) => s.has(slot)))) continue;
      if (q.familyContext && kinds[slot]! & SURVEY) scores[slot]! *= BM25.surveyFactor;
      total++;
      heap.offer(slot);
    }
    return { ranked: heap.sorted().map((slot) => ({ id: this.ids[slot]!, score: scores[slot]! })), total };
  }

  /**
   * Pseudo-relevance feedback: the terms most shared by the `docs` best papers for a query (each
   * in at least two of them, rare enough in the corpus to say something), best first, at most `count`.
   * A long question says its topic in words papers do not use; the papers it finds do.
   */
  feedbackTerms(q: ParsedQuery, docs: number, count: number): { term: string; share: number }[] {
    const { ranked } = this.search(q, docs);
    const seen = new Map<number, number>();
    for (const r of ranked)
      for (const tid of this.docTerms[this.slotOf.get(r.id)!] ?? []) seen.set(tid, (seen.get(tid) ?? 0) + 1);
    const asked = new Set(q.terms.map((t) => t.term));
    const maxDf = Math.max(2, this.size / 10);
    const out: { term: string; share: number; w: number }[] = [];
    for (const [tid, n] of seen) {
      const term = this.termOf[tid]!;
      const df = this.postings[tid]!.live;
      if (n < 2 || asked.has(term) || term.includes(' ') || df > maxDf || /^\d+$/.test(term)) continue;
      out.push({ term, share: n / ranked.length, w: n * this.idf(term) });
    }
    return out
      .sort((a, b) => b.w - a.w || (a.term < b.term ? -1 : 1))
      .slice(0, count)
      .map(({ term, share }) => ({ term, share }));
  }

  private termId(t: string): number {
    let tid = this.termIds.get(t);
    if (tid === undefined) {
      tid = this.postings.length;
      this.termIds.set(t, tid);
      this.termOf.push(t);
      this.postings.push(new Postings());
      if (!t.includes(' ')) {
        const bucket = this.byInitial.get(t[0]!);
        if (bucket) bucket.push(t);
        else this.byInitial.set(t[0]!, [t]);
      }
    }
    return tid;
  }

  private *slotsWith(term: string): Generator<number> {
    const tid = this.termIds.get(term);
    const list = tid === undefined ? undefined : this.postings[tid];
    if (!list) return;
    for (let i = 0; i < list.length; i++) if (this.alive[list.slots[i]!] === 1) yield list.slots[i]!;
  }

  private reserve(size: number): void {
    this.ids = grow(this.ids, size);
    this.days = grow(this.days, size);
    this.alive = grow(this.alive, size);
    this.kinds = grow(this.kinds, size);
    this.lengths = grow(this.lengths, size * F);
  }

  private refreshFactors(): void {
    const n = Math.max(this.size, 1);
    const avg = FIELDS.map((_, f) => Math.max(this.totals[f]! / n, 1));
    if (this.factor.length < this.ids.length * F) this.factor = new Float32Array(this.ids.length * F);
    if (this.scores.length < this.ids.length) {
      this.scores = new Float64Array(this.ids.length);
      this.stamp = new Uint32Array(this.ids.length);
    }
    for (let slot = 0; slot < this.slots; slot++) {
      FIELDS.forEach((field, f) => {
        const b = BM25.b[field];
        this.factor[slot * F + f] = BM25.weight[field] / (1 - b + (b * this.lengths[slot * F + f]!) / avg[f]!);
      });
    }
    this.stale = false;
  }

  private nextGeneration(): number {
    if (++this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }

  /** Drops dead slots (rebuilding the posting lists) once many papers were replaced. */
  private compact(): void {
    const newSlot = new Int32Array(this.slots).fill(-1);
    let n = 0;
    for (let slot = 0; slot < this.slots; slot++) if (this.alive[slot] === 1) newSlot[slot] = n++;
    for (const [tid, list] of this.postings.entries()) {
      const fresh = new Postings();
      for (let i = 0; i < list.length; i++) {
        const s = newSlot[list.slots[i]!]!;
        if (s >= 0) fresh.push(s, list.tf[i]!);
      }
      this.postings[tid] = fresh; // an emptied term stays, with df 0, so the vocabulary needs no rebuild
    }
    const move = <T extends Int32Array | Uint8Array | Uint16Array>(a: T, width = 1): T => {
      const out = new (a.constructor as new (k: number) => T)(a.length);
      for (let slot = 0; slot < this.slots; slot++) {
        const to = newSlot[slot]!;
        if (to >= 0) out.set(a.subarray(slot * width, (slot + 1) * width), to * width);
      }
      return out;
    };
    this.ids = move(this.ids);
    this.days = move(this.days);
    this.alive = move(this.alive);
    this.kinds = move(this.kinds);
    this.lengths = move(this.lengths, F);
    const terms: (Int32Array | undefined)[] = [];
    for (let slot = 0; slot < this.slots; slot++) if (newSlot[slot]! >= 0) terms[newSlot[slot]!] = this.docTerms[slot];
    this.docTerms = terms;
    this.slots = n;
    this.slotOf.clear();
    for (let slot = 0; slot < n; slot++) this.slotOf.set(this.ids[slot]!, slot);
    this.dead = 0;
    this.stale = true;
  }
}

/** The best `k` of a stream by a comparison (greater is better), in a min-heap; `sorted` gives them best first. */
class TopK {
  private readonly heap: number[] = [];
  constructor(
    private readonly k: number,
    private readonly cmp: (a: number, b: number) => number,
  ) {}

  offer(x: number): void {
    const h = this.heap;
    if (h.length < this.k) {
      h.push(x);
      let i = h.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.cmp(h[i]!, h[parent]!) >= 0) break;
        [h[i], h[parent]] = [h[parent]!, h[i]!];
        i = parent;
      }
    } else if (this.cmp(x, h[0]!) > 0) {
      h[0] = x;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.cmp(h[l]!, h[m]!) < 0) m = l;
        if (r < h.length && this.cmp(h[r]!, h[m]!) < 0) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
  }

  sorted(): number[] {
    return [...this.heap].sort((a, b) => this.cmp(b, a));
  }
}

export type { QueryTerm };
