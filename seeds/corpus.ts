/**
 * Merges the seed entries that describe the same paper (same arXiv id, or same title key)
 * into one record, keeping every entry so the importer can store provenance per file.
 */
import { titleKey } from '../src/core/papers/identity.ts';
import type { SeedPaper } from '../src/core/seeds/types.ts';

export interface MergedSeedPaper extends Omit<SeedPaper, 'file' | 'entryId'> {
  /** The entries merged into this record, in corpus order. */
  entries: SeedPaper[];
}

export function mergeSeedPapers(papers: SeedPaper[]): MergedSeedPaper[] {
  return groupSamePaper(papers).map((group) => mergeGroup(group.map((i) => papers[i]!)));
}

/**
 * Union-find over entry indexes. Two groups are never joined when they carry different arXiv
 * ids: two distinct papers with the same title must stay two papers.
 */
function groupSamePaper(papers: SeedPaper[]): number[][] {
  const parent = papers.map((_, i) => i);
  const idOf = papers.map((p) => p.arxivId);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra === rb || (idOf[ra] && idOf[rb] && idOf[ra] !== idOf[rb])) return;
    parent[rb] = ra;
    idOf[ra] ??= idOf[rb];
  };
  const firstById = new Map<string, number>();
  const firstByTitle = new Map<string, number>();
  papers.forEach((p, i) => {
    if (p.arxivId) union(firstById.get(p.arxivId) ?? setFirst(firstById, p.arxivId, i), i);
    const key = titleKey(p.title);
    if (key) union(firstByTitle.get(key) ?? setFirst(firstByTitle, key, i), i);
  });
  const groups = new Map<number, number[]>();
  papers.forEach((_, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  });
  return [...groups.values()];
}

function setFirst(map: Map<string, number>, key: string, i: number): number {
  map.set(key, i);
  return i;
}

function mergeGroup(entries: SeedPaper[]): MergedSeedPaper {
  const first = <K extends keyof SeedPaper>(key: K): SeedPaper[K] | undefined =>
    entries.find((e) => e[key] !== undefined && e[key] !== '')?.[key];
  const longest = (values: (string | undefined)[]): string | undefined =>
    values.reduce<string | undefined>((best, v) => (v && v.length > (best?.length ?? 0) ? v : best), undefined);
  const max = (values: (number | undefined)[]): number | undefined => {
    const defined = values.filter((v): v is number => v !== undefined);
    return defined.length > 0 ? Math.max(...defined) : undefined;
  };

  // Titles from entries with an arXiv id come from arXiv metadata; other sources retype them.
  const titled = entries.find((e) => e.arxivId) ?? entries[0]!;
  const latest = entries.reduce((best, e) => ((e.arxivVersion ?? 0) > (best.arxivVersion ?? 0) ? e : best));
  const merged: MergedSeedPaper = {
    arxivId: first('arxivId'),
    arxivVersion: max(entries.map((e) => e.arxivVersion)),
    title: titled.title,
    titleZh: first('titleZh'),
    // The longest abstract is the complete one (search pages and hubs may shorten them).
    abstract: longest(entries.map((e) => e.abstract)),
    abstractZh: first('abstractZh'),
    authors: entries.reduce<string[] | undefined>(
      (best, e) => ((e.authors?.length ?? 0) > (best?.length ?? 0) ? e.authors : best),
      undefined,
    ),
    authorCount: max(entries.map((e) => e.authorCount ?? e.authors?.length)),
    organization: first('organization'),
    // A day beats a month: '2025-05-12' over '2025-05'.
    publishedOn: longest(entries.map((e) => e.publishedOn)),
    hfUpvotes: max(entries.map((e) => e.hfUpvotes)),
    githubUrl: first('githubUrl'),
    projectUrl: first('projectUrl'),
    pdfUrl: latest.pdfUrl ?? first('pdfUrl'),
    note: first('note'),
    citationContext: first('citationContext'),
    entries,
  };
  // Drop absent fields so records compare and serialise cleanly.
  for (const key of Object.keys(merged) as (keyof MergedSeedPaper)[]) {
    if (merged[key] === undefined) delete merged[key];
  }
  return merged;
}
