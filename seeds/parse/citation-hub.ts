/**
 * File 001: a saved citation-hub page for one paper (GSPO). Layout, one item per line:
 *   [a stray summary line left over from the page's scroll position]
 *   super hub ...  /  <hub title>  /  Canonical reference. ...  /  abstract  /  <hub abstract>
 *   hub tools, claims ledger, ... "representative citing papers": summaries only, no titles
 *   "citing papers explorer", then per citing paper: "-", <title>, <one-line summary>
 * Only the explorer pairs titles with summaries, so the citing papers come from there; the
 * representative list repeats a subset of the same summaries and is ignored.
 * The page carries no arXiv ids: the hub's id must come from elsewhere (see parse/index.ts).
 */
import type { SeedCitation, SeedPaper } from '../../src/core/seeds/types.ts';
import { splitLines } from './text.ts';

const EXPLORER = 'citing papers explorer';

export interface CitationHubPage {
  hub: { title: string; abstract?: string };
  citing: { title: string; summary: string }[];
}

/** Reads the page structure; no ids involved. */
export function readCitationHub(text: string): CitationHubPage {
  const lines = splitLines(text).map((line) => line.trim());
  const hubAt = lines.findIndex((line) => /^super hub\b/i.test(line));
  const title = lines[hubAt + 1];
  if (hubAt < 0 || !title) throw new Error('001: no "super hub" header, not a citation-hub page');
  const abstractAt = lines.indexOf('abstract', hubAt);
  const abstract = abstractAt >= 0 ? lines[abstractAt + 1] : undefined;

  const explorerAt = lines.indexOf(EXPLORER);
  if (explorerAt < 0) throw new Error(`001: no "${EXPLORER}" section`);
  const citing: CitationHubPage['citing'] = [];
  const items = lines.slice(explorerAt + 1).filter((line) => line !== '');
  for (let i = 0; i < items.length; i++) {
    if (items[i] !== '-') continue;
    const citingTitle = items[i + 1];
    const summary = items[i + 2];
    // A page cut off after a title still names a citing paper; keep it without a summary.
    if (citingTitle && citingTitle !== '-')
      citing.push({ title: citingTitle, summary: summary === '-' ? '' : (summary ?? '') });
  }
  return { hub: { title, ...(abstract && { abstract }) }, citing };
}

/**
 * Papers (the hub first, then the citing papers in page order) and one citation edge per
 * citing paper. `hubArxivId` is the hub's id, which the page itself does not give.
 */
export function parseCitationHub(text: string, hubArxivId: string): { papers: SeedPaper[]; citations: SeedCitation[] } {
  const page = readCitationHub(text);
  const hub: SeedPaper = { file: '001', entryId: 'hub', arxivId: hubArxivId, ...page.hub };
  const citing = page.citing.map((c, i): SeedPaper => ({
    file: '001',
    entryId: `citing-${String(i + 1).padStart(2, '0')}`,
    title: c.title,
    ...(c.summary && { citationContext: c.summary }),
  }));
  const citations = page.citing.map((c) => ({ citingTitle: c.title, citedArxivId: hubArxivId, context: c.summary }));
  return { papers: [hub, ...citing], citations };
}
