/**
 * A paper as the CLI's `--json` prints it. A source that counted the authors without naming them
 * (Hugging Face's search pages) leaves `authors: []` beside `authorCount: 8`, which reads as "no
 * authors": the names are `null` (unknown) instead, and `authorCount` says how many there are.
 */
export function paperJson<T extends { authors: string[]; authorCount: number | null }>(
  p: T,
): Omit<T, 'authors'> & { authors: string[] | null } {
  return { ...p, authors: p.authors.length === 0 && p.authorCount ? null : p.authors };
}

/** An exported paper row (snake_case, as `export` writes it), with the same rule for its authors. */
export function exportedPaper(row: Record<string, unknown>): Record<string, unknown> {
  const authors = Array.isArray(row.authors) ? row.authors : [];
  return { ...row, authors: authors.length === 0 && row.author_count ? null : authors };
}
