/**
 * How a feed item changes what we know about a paper. Pure: the upsert loads rows, folds every
 * candidate for the same arXiv id into them with `mergeCandidate`, and writes only `changedFields`.
 *
 * The rules, and why:
 * - A newer arXiv version replaces title and abstract (authors revise them); an older or equal
 *   one only fills what is empty, so a late cross-list never rolls text back.
 * - Hugging Face counters (upvotes, stars) grow during the day: the latest value wins. Its links,
 *   organisation and AI summary are filled or refreshed when present, never erased when absent.
 * - Categories are a union, the stored order (primary first) kept.
 * - Everything else only fills empty fields, so seed data and earlier sources are never lost.
 * - A `replace` (a new version announced) is a revision, not a description of the paper: its date is
 *   the day the new version was announced and its author line is the revised one. It bumps version,
 *   title and abstract (and adds categories) and sets nothing else, so a 2025 paper never becomes
 *   new in 2026 and a curated author list or organisation is never rewritten.
 * - A date or version arXiv could not have issued (after tomorrow, before 1991, v1000) counts as not
 *   given (plausible.ts): one item cannot pin a paper first in every list nor claim its text.
 */
import type { PaperCandidate } from './candidate.ts';
import { titleKey } from './identity.ts';
import { plausibleDay, plausibleVersion } from './plausible.ts';

/** The paper columns a feed may set. */
export interface PaperFields {
  arxivId: string | null;
  arxivVersion: number | null;
  titleKey: string;
  title: string;
  abstract: string;
  authors: string[];
  authorCount: number | null;
  organization: string | null;
  publishedOn: string | null;
  categories: string[];
  githubUrl: string | null;
  githubStars: number | null;
  projectPage: string | null;
  hfUpvotes: number | null;
  aiSummary: string | null;
  aiKeywords: string[];
}

const EMPTY: PaperFields = {
  arxivId: null,
  arxivVersion: null,
  titleKey: '',
  title: '',
  abstract: '',
  authors: [],
  authorCount: null,
  organization: null,
  publishedOn: null,
  categories: [],
  githubUrl: null,
  githubStars: null,
  projectPage: null,
  hfUpvotes: null,
  aiSummary: null,
  aiKeywords: [],
};

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
const fill = <T>(current: T, incoming: T | undefined): T =>
  isEmpty(current) && !isEmpty(incoming) ? (incoming as T) : current;
const refresh = <T>(current: T, incoming: T | undefined): T => (isEmpty(incoming) ? current : (incoming as T));

/** Folds one candidate into a paper (or into nothing, for a paper not stored yet); `today` (YYYY-MM-DD, UTC) bounds its date. */
export function mergeCandidate(current: PaperFields | null, candidate: PaperCandidate, today: string): PaperFields {
  const cur = current ?? EMPTY;
  const version = plausibleVersion(candidate.version, cur.arxivVersion);
  const publishedOn = plausibleDay(candidate.publishedOn, today);
  const { version: _v, publishedOn: _p, ...rest } = candidate;
  const c: PaperCandidate = { ...rest, ...(version !== undefined && { version }), ...(publishedOn && { publishedOn }) };
  const fromArxiv = c.source !== 'hf-daily';
  const newer = fromArxiv && c.version !== undefined && c.version > (cur.arxivVersion ?? 0);
  const title = newer || !cur.title ? c.title : cur.title;
  const hf = c.hf ?? {};
  const revision = !isAnnouncement(c);
  return {
    arxivId: cur.arxivId ?? c.arxivId,
    arxivVersion: newer ? c.version! : cur.arxivVersion,
    title,
    titleKey: title === cur.title && cur.titleKey ? cur.titleKey : titleKey(title),
    abstract: newer && c.abstract ? c.abstract : fill(cur.abstract, c.abstract),
    authors: revision ? cur.authors : fill(cur.authors, c.authors),
    authorCount: revision ? cur.authorCount : fill(cur.authorCount, c.authors.length || null),
    organization: refresh(cur.organization, hf.organization),
    publishedOn: revision ? cur.publishedOn : fill(cur.publishedOn, c.publishedOn),
    categories: [...new Set([...cur.categories, ...c.categories])],
    githubUrl: refresh(cur.githubUrl, hf.githubUrl),
    githubStars: refresh(cur.githubStars, hf.githubStars),
    projectPage: refresh(cur.projectPage, hf.projectPage),
    hfUpvotes: refresh(cur.hfUpvotes, hf.upvotes),
    aiSummary: refresh(cur.aiSummary, hf.aiSummary),
    aiKeywords: refresh(cur.aiKeywords, hf.aiKeywords),
  };
}

/** The fields whose values differ, ready for an UPDATE; empty when nothing changed. */
export function changedFields(before: PaperFields, after: PaperFields): Partial<PaperFields> {
  const patch: Partial<PaperFields> = {};
  for (const key of Object.keys(after) as (keyof PaperFields)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) Object.assign(patch, { [key]: after[key] });
  }
  return patch;
}

/** Title or abstract changed: the classification must be recomputed. */
export function textChanged(patch: Partial<PaperFields>): boolean {
  return 'title' in patch || 'abstract' in patch;
}

/** `replace` items update a known paper; they are never news. */
export function isAnnouncement(c: PaperCandidate): boolean {
  return c.announceType === undefined || c.announceType === 'new' || c.announceType === 'cross';
}
