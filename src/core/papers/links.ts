import { arxivAbsUrl, arxivPdfUrl, hfPaperUrl } from './identity.ts';
import { readable } from './latex.ts';
import { untrustedText } from '../reply.ts';

/** Where a paper's code may live: a link to anywhere else is not shown (a feed chooses these URLs). */
const CODE_HOSTS = ['github.com', 'gitlab.com', 'huggingface.co', 'codeberg.org', 'bitbucket.org'];
/**
 * Where project pages live: the code hosts, their own page hosts (a page there belongs to an account
 * of the code host), and university sites. Anonymous free hosting (netlify.app, vercel.app,
 * pages.dev, notion.site, sites.google.com, readthedocs.io ...) is left out: anyone can put any page
 * there in a minute, and a feed's link would show as the paper's project page.
 */
const PAGE_HOSTS = [...CODE_HOSTS, 'github.io', 'gitlab.io', 'hf.co', 'hf.space'];
const ACADEMIC = /\.(?:edu|ac\.[a-z]{2}|edu\.[a-z]{2})$/;

/**
 * The URL when it is an http(s) link to one of `hosts` (or a subdomain), without credentials; else
 * undefined. `javascript:`, `data:`, IP addresses and look-alike hosts never become a link or button.
 */
export function trustedUrl(
  raw: string | null | undefined,
  hosts: readonly string[],
  opts: { academic?: boolean } = {},
): string | undefined {
  if (!raw || raw.length > 512) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined;
  const host = url.hostname.toLowerCase();
  const known =
    hosts.some((h) => host === h || host.endsWith(`.${h}`)) || (opts.academic === true && ACADEMIC.test(host));
  // Brackets would end a markdown link early (`[Code](https://github.com/a)[x](http://evil)`).
  return known
    ? url.toString().replace(/[()[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    : undefined;
}

export interface PaperLinks {
  /** Where the title links to: the arXiv abstract, else a title search. */
  main: string;
  list: { label: string; url: string }[];
}

/** Links for a paper: arXiv abs and PDF and the HF page when the id is known; title searches otherwise; code and project page from known hosts only. */
export function paperLinks(p: {
  arxivId: string | null;
  arxivVersion?: number | null;
  title: string;
  githubUrl?: string | null;
  projectPage?: string | null;
}): PaperLinks {
  const list: { label: string; url: string }[] = [];
  let main: string;
  if (p.arxivId) {
    main = arxivAbsUrl(p.arxivId);
    list.push(
      { label: 'arXiv', url: main },
      { label: 'PDF', url: arxivPdfUrl(p.arxivId, p.arxivVersion ?? undefined) },
    );
    list.push({ label: 'Hugging Face', url: hfPaperUrl(p.arxivId) });
  } else {
    main = `https://arxiv.org/search/?searchtype=title&query=${encodeURIComponent(p.title)}`;
    list.push({ label: 'Find on arXiv', url: main });
    list.push({ label: 'Hugging Face', url: `https://huggingface.co/papers?q=${encodeURIComponent(p.title)}` });
  }
  const code = trustedUrl(p.githubUrl, CODE_HOSTS);
  const page = trustedUrl(p.projectPage, PAGE_HOSTS, { academic: true });
  if (code) list.push({ label: 'Code', url: code });
  if (page) list.push({ label: 'Project page', url: page });
  return { main, list };
}

/** "Qwen Team" / "A. Author, B. Author et al." / "8 authors": the best byline a source gave. */
export function byline(p: {
  authors: string[];
  authorCount: number | null;
  organization: string | null;
}): string | undefined {
  const parts: string[] = [];
  if (p.authors.length > 0)
    parts.push(p.authors.length > 3 ? `${p.authors.slice(0, 3).join(', ')} et al.` : p.authors.join(', '));
  else if (p.authorCount) parts.push(`${p.authorCount} author${p.authorCount === 1 ? '' : 's'}`);
  if (p.organization) parts.push(p.organization);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

/** A paper title as a masked link's text: LaTeX read, shown as text, on one line, no bracket to close the link early. */
export function linkTitle(title: string): string {
  return untrustedText(
    readable(title)
      .replace(/[[\]\s]+/g, ' ')
      .trim(),
  );
}
