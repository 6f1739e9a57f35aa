/** One paper as a seed document describes it, before identity resolution and storage. */
export interface SeedPaper {
  /** Which seed file it came from: '000', '001', '002', '003' or '004'. */
  file: SeedFile;
  /** Stable id of the entry inside its file (anchor slug, list position or title key). */
  entryId: string;
  /** arXiv id without version (`2507.18071`), when the file gives one. */
  arxivId?: string;
  arxivVersion?: number;
  title: string;
  titleZh?: string;
  abstract?: string;
  abstractZh?: string;
  authors?: string[];
  authorCount?: number;
  organization?: string;
  /** ISO date or month the file gives (`2025-07-21`, `2025-07`). */
  publishedOn?: string;
  hfUpvotes?: number;
  githubUrl?: string;
  /** A code or project link that is not a GitHub repository (project page, HF collection). */
  projectUrl?: string;
  pdfUrl?: string;
  /** The repaired, structured Chinese note (files 002 and 003). */
  note?: SeedNote;
  /** File 001: the one-line summary of a paper citing the hub paper. */
  citationContext?: string;
}

export type SeedFile = '000' | '001' | '002' | '003' | '004';

export interface SeedNote {
  lang: 'zh';
  /** The note's title line (after "论文解读 |"). */
  heading: string;
  motivation: string;
  /** The core method's numbered innovations, one string each. */
  method: string[];
  results: string;
  takeaways: string;
  /** The whole repaired note as markdown, sections kept. */
  body: string;
  /** Characters restored by the mojibake repair and characters that could not be (marked with U+FFFD). */
  restoredChars: number;
  unresolvedChars: number;
  /** Restored characters whose choice between candidates was a close call (see seeds/repair/index.ts). */
  uncertainChars: number;
}

/** A citation edge from the seeds: file 001 lists papers citing the hub (GSPO, 2507.18071). */
export interface SeedCitation {
  citingTitle: string;
  citedArxivId: string;
  context: string;
}
