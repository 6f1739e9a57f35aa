import { arxivAbsUrl, arxivPdfUrl, hfPaperUrl } from '../papers/identity.ts';

export interface PaperLinks {
  /** Where the title links to: the arXiv abstract, else a title search. */
  main: string;
  list: { label: string; url: string }[];
}

/** Links for a paper: arXiv abs and PDF and the HF page when the id is known; title searches otherwise. */
export function paperLinks(p: { arxivId: string | null; arxivVersion?: number | null; title: string; githubUrl?: string | null; projectPage?: string | null }): PaperLinks {
  const list: { label: string; url: string }[] = [];
  let main: string;
  if (p.arxivId) {
    main = arxivAbsUrl(p.arxivId);
    list.push({ label: 'arXiv', url: main }, { label: 'PDF', url: arxivPdfUrl(p.arxivId, p.arxivVersion ?? undefined) });
    list.push({ label: 'Hugging Face', url: hfPaperUrl(p.arxivId) });
  } else {
    main = `https://arxiv.org/search/?searchtype=title&query=${encodeURIComponent(p.title)}`;
    list.push({ label: 'Find on arXiv', url: main });
    list.push({ label: 'Hugging Face', url: `https://huggingface.co/papers?q=${encodeURIComponent(p.title)}` });
  }
  if (p.githubUrl) list.push({ label: 'Code', url: p.githubUrl });
  if (p.projectPage) list.push({ label: 'Project page', url: p.projectPage });
  return { main, list };
}

/** "Qwen Team" / "A. Author, B. Author et al." / "8 authors": the best byline a source gave. */
export function byline(p: { authors: string[]; authorCount: number | null; organization: string | null }): string | undefined {
  const parts: string[] = [];
  if (p.authors.length > 0) parts.push(p.authors.length > 3 ? `${p.authors.slice(0, 3).join(', ')} et al.` : p.authors.join(', '));
  else if (p.authorCount) parts.push(`${p.authorCount} author${p.authorCount === 1 ? '' : 's'}`);
  if (p.organization) parts.push(p.organization);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}
