/**
 * The search index (pure, in memory): BM25F over a paper's fields, so a word found in two papers
 * outweighs a word found in two hundred, and a title counts more than an abstract. The index is
 * derived data: src/search loads it from Postgres (the source of truth) and keeps it current.
 *
 * Per term, a posting list of (document slot, term frequency per field). Scoring a query adds, per
 * term, idf(term) x weight x saturate(tf~), where tf~ sums the fields' frequencies, each weighted and
 * normalised by the field's length against its average (BM25F). A document removed or replaced
 * leaves a dead slot, skipped when scoring and dropped when the index is compacted.
 */
import { indexTerms, pairs } from './analyze.ts';
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

/** Field weights and length normalisation (tuned on the dev questions, docs/BENCHMARKS.md). */
export const BM25 = {
  k1: 1.2,
  weight: { title: 3, abstract: 1, body: 0.5, zh: 1, tags: 2 } satisfies Record<Field, number>,
  b: { title: 0.5, abstract: 0.75, body: 0.75, zh: 0.5, tags: 0 } satisfies Record<Field, number>,
};

class Postings {
  slots = new Int32Array(4);
  /** Term frequency per field, packed: title | abstract << 8 | body << 16 (a byte each, capped at 255) | zh << 24 | tags << 28 (4 bits each). */
  tf = new Uint32Array(4);
  length = 0;
  live = 0;
  push(slot: number, packed: number): void {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      this.slots = slots;
      const tf = new Uint32Array(this.length * 2);
      tf.set(this.tf);
      this.tf = tf;
    }
    this.slots[this.length] = slot;
    this.tf[this.length++] = packed;
    this.live++;
  }
}

export interface Ranked {
  id: number;
  score: number;
}

export class SearchIndex {
  private readonly postings = new Map<string, Postings>();
  private ids: number[] = [];
  private days: number[] = [];
  /** Field lengths per slot, FIELDS.length per slot. */
  private lengths: number[] = [];
  private alive: boolean[] = [];
  private terms: string[][] = [];
  private readonly slotOf = new Map<number, number>();
  private readonly totals = new Float64Array(FIELDS.length);
  private dead = 0;
  private readonly byInitial = new Map<string, string[]>();

  get size(): number {
    return this.slotOf.size;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Adds a paper, replacing what the index had for the same id. */
  add(p: IndexedPaper): void {
    this.remove(p.id);
    const slot = this.ids.length;
    const title = indexTerms(p.title);
    const abstract = indexTerms(p.abstract);
    const body = indexTerms(p.body);
    const fieldTerms: Record<Field, string[]> = {
      title: [...title.seq, ...title.joined, ...pairs(title.seq)],
      abstract: [...abstract.seq, ...abstract.joined],
      body: [...body.seq, ...body.joined],
      zh: p.zh.split(/\s+/).filter(Boolean),
      tags: p.families.flatMap((f) => indexTerms(f).seq),
    };
    const counts = new Map<string, number[]>();
    FIELDS.forEach((field, f) => {
      for (const t of fieldTerms[field]) {
        const c = counts.get(t) ?? [0, 0, 0, 0, 0];
        c[f]!++;
        counts.set(t, c);
      }
      const len = field === 'title' ? title.seq.length : fieldTerms[field].length;
      this.lengths.push(len);
      this.totals[f]! += len;
    });
    for (const [t, c] of counts) {
      let list = this.postings.get(t);
      if (!list) {
        this.postings.set(t, (list = new Postings()));
        if (!t.includes(' ')) {
          const bucket = this.byInitial.get(t[0]!);
          if (bucket) bucket.push(t);
          else this.byInitial.set(t[0]!, [t]);
        }
      }
      const high = Math.min(15, c[3]!) | (Math.min(15, c[4]!) << 4);
      list.push(slot, Math.min(255, c[0]!) | (Math.min(255, c[1]!) << 8) | (Math.min(255, c[2]!) << 16) | (high << 24));
    }
    this.ids.push(p.id);
    this.days.push(p.day);
    this.alive.push(true);
    this.terms.push([...counts.keys()]);
    this.slotOf.set(p.id, slot);
  }

  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.alive[slot] = false;
    for (let f = 0; f < FIELDS.length; f++) this.totals[f]! -= this.lengths[slot * FIELDS.length + f]!;
    for (const t of this.terms[slot]!) this.postings.get(t)!.live--;
    this.terms[slot] = [];
    if (++this.dead > 1000 && this.dead > this.ids.length / 4) this.compact();
  }

  /** How many papers have the term (live ones). */
  df(term: string): number {
    return this.postings.get(term)?.live ?? 0;
  }

  /** Index terms starting with this letter: where a misspelled word looks for its correction. */
  vocabulary(initial: string): readonly string[] {
    return this.byInitial.get(initial) ?? [];
  }

  idf(term: string): number {
    const n = this.size;
    const df = this.df(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Ranks the papers for a parsed query: any term may match (a long question still finds its best
   * partial matches); more matching rare terms rank higher. Ties go to the newer paper.
   */
  search(q: ParsedQuery, limit: number): { ranked: Ranked[]; total: number } {
    const n = this.size;
    if (n === 0 || q.terms.length === 0) return { ranked: [], total: 0 };
    const avg = FIELDS.map((_, f) => Math.max(this.totals[f]! / n, 1));
    const { k1, weight: w, b } = BM25;
    const norm = (slot: number, f: number) => 1 - b[FIELDS[f]!] + (b[FIELDS[f]!] * this.lengths[slot * FIELDS.length + f]!) / avg[f]!;
    const scores = new Map<number, number>();
    for (const qt of q.terms) {
      const list = this.postings.get(qt.term);
      if (!list || list.live === 0) continue;
      const idf = this.idf(qt.term) * qt.weight;
      for (let i = 0; i < list.length; i++) {
        const slot = list.slots[i]!;
        if (!this.alive[slot]) continue;
        const packed = list.tf[i]!;
        const high = packed >>> 24;
        const tf = (w.title * (packed & 255)) / norm(slot, 0) + (w.abstract * ((packed >>> 8) & 255)) / norm(slot, 1)
          + (w.body * ((packed >>> 16) & 255)) / norm(slot, 2) + (w.zh * (high & 15)) / norm(slot, 3) + (w.tags * (high >>> 4)) / norm(slot, 4);
        scores.set(slot, (scores.get(slot) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1));
      }
    }
    for (const t of q.exclude) for (const slot of this.slotsWith(t)) scores.delete(slot);
    for (const phrase of q.phrases) {
      const ok = phrase.map((t) => new Set(this.slotsWith(t)));
      for (const slot of scores.keys()) if (!ok.every((s) => s.has(slot))) scores.delete(slot);
    }
    const ranked = [...scores].sort((a, z) => z[1] - a[1] || this.days[z[0]]! - this.days[a[0]]! || this.ids[a[0]]! - this.ids[z[0]]!);
    return { ranked: ranked.slice(0, limit).map(([slot, score]) => ({ id: this.ids[slot]!, score })), total: ranked.length };
  }

  private *slotsWith(term: string): Generator<number> {
    const list = this.postings.get(term);
    if (!list) return;
    for (let i = 0; i < list.length; i++) if (this.alive[list.slots[i]!]) yield list.slots[i]!;
  }

  /** Drops dead slots (rebuilding the posting lists) once many papers were replaced. */
  private compact(): void {
    const keep = this.ids.map((_, slot) => slot).filter((slot) => this.alive[slot]);
    const newSlot = new Int32Array(this.ids.length).fill(-1);
    keep.forEach((slot, i) => (newSlot[slot] = i));
    for (const [t, list] of this.postings) {
      const fresh = new Postings();
      for (let i = 0; i < list.length; i++) {
        const s = newSlot[list.slots[i]!]!;
        if (s >= 0) fresh.push(s, list.tf[i]!);
      }
      this.postings.set(t, fresh); // an emptied term stays, with df 0, so the vocabulary needs no rebuild
    }
    this.lengths = keep.flatMap((slot) => this.lengths.slice(slot * FIELDS.length, (slot + 1) * FIELDS.length));
    this.ids = keep.map((s) => this.ids[s]!);
    this.days = keep.map((s) => this.days[s]!);
    this.terms = keep.map((s) => this.terms[s]!);
    this.alive = keep.map(() => true);
    this.slotOf.clear();
    this.ids.forEach((id, slot) => this.slotOf.set(id, slot));
    this.dead = 0;
  }
}

export type { QueryTerm };
