/**
 * Paper identity helpers: arXiv ids and title keys. Pure (no I/O), shared by the seed importer,
 * the fetchers and the bot, so every source resolves "the same paper" the same way.
 */

export interface ArxivIdParts {
  /** The id without version: `2507.18071`, `cs/0112017`. */
  id: string;
  version?: number;
}

// New scheme (April 2007 on): YYMM.NNNN until 2014, YYMM.NNNNN from 2015.
const NEW_ID = /^(\d{2})(\d{2})\.(\d{4,5})(?:v(\d+))?$/;
// Old scheme (1991 to March 2007): archive[.SUBJECT]/YYMMNNN, e.g. `math.AG/0309136`, `hep-th/9901001`.
const OLD_ID = /^([a-z]+(?:-[a-z]+)*)(\.[A-Z]{2})?\/(\d{2})(\d{2})(\d{3})(?:v(\d+))?$/;
const ARXIV_URL = /^(?:https?:\/\/)?(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf)\/(.+?)(?:\.pdf)?\/?$/i;
const HF_URL = /^(?:https?:\/\/)?(?:www\.)?(?:huggingface\.co|hf\.co)\/papers\/(.+?)\/?$/i;

/**
 * Parses an arXiv id out of the forms the sources use: a bare id (with or without version),
 * `arXiv:` prefixed, arxiv.org abs/pdf links and Hugging Face paper pages. Returns null for
 * anything else, including ids with an impossible month or a number of the wrong length.
 */
export function parseArxivId(input: string): ArxivIdParts | null {
  let s = input.trim().replace(/[?#].*$/, '');
  const url = ARXIV_URL.exec(s) ?? HF_URL.exec(s);
  if (url?.[1]) s = url[1];
  else s = s.replace(/^arxiv:\s*/i, '');

  const modern = NEW_ID.exec(s);
  if (modern) {
    const [, yy, mm, num, v] = modern;
    if (!validMonth(mm) || Number(yy) < 7 || (Number(yy) === 7 && Number(mm) < 4)) return null;
    // Five-digit numbers started in January 2015; before that they were four digits.
    if ((num!.length === 5) !== Number(yy) >= 15) return null;
    return withVersion(`${yy}${mm}.${num}`, v);
  }
  const legacy = OLD_ID.exec(s);
  if (legacy) {
    const [, archive, subject, yy, mm, num, v] = legacy;
    const year = Number(yy);
    if (!validMonth(mm) || (year > 7 && year < 91)) return null;
    return withVersion(`${archive}${subject ?? ''}/${yy}${mm}${num}`, v);
  }
  return null;
}

/** The month an arXiv id was assigned (its first version's submission month), `YYYY-MM`; undefined when it cannot tell. */
export function arxivIdMonth(id: string): string | undefined {
  const modern = NEW_ID.exec(id);
  if (modern) return `20${modern[1]}-${modern[2]}`;
  const legacy = OLD_ID.exec(id);
  if (legacy) return `${Number(legacy[3]) >= 91 ? '19' : '20'}${legacy[3]}-${legacy[4]}`;
  return undefined;
}

function validMonth(mm: string | undefined): boolean {
  const m = Number(mm);
  return m >= 1 && m <= 12;
}

function withVersion(id: string, v: string | undefined): ArxivIdParts | null {
  if (v === undefined) return { id };
  const version = Number(v);
  return version >= 1 ? { id, version } : null;
}

export function arxivAbsUrl(id: string): string {
  return `https://arxiv.org/abs/${id}`;
}

export function arxivPdfUrl(id: string, version?: number): string {
  return `https://arxiv.org/pdf/${id}${version ? `v${version}` : ''}`;
}

export function hfPaperUrl(id: string): string {
  return `https://huggingface.co/papers/${id}`;
}

/**
 * A key for matching one paper's title across sources. The sources disagree on case, spacing,
 * punctuation, unicode forms and LaTeX (`MAS$^2$` in a BibTeX export vs `MAS²` or `MAS2`
 * elsewhere), so all of that is folded away. The whole title is kept, not just the acronym
 * before the colon: different papers share names like "S-GRPO:".
 */
export function titleKey(title: string): string {
  return capKey(
    title
      .normalize('NFKD')
      .replace(/\p{M}/gu, '') // diacritics: "Schrödinger" == "Schrodinger"
      .toLowerCase()
      .replace(/\\[a-z]+\s*/g, '') // LaTeX commands (\textbf, \mathcal, \underline)
      .replace(/&/g, ' and ')
      // NFKD already turned superscripts and full-width forms into plain digits and letters;
      // everything that is not a letter or digit (punctuation, $ ^ _ { }, spaces) goes.
      .replace(/[^\p{L}\p{N}]+/gu, ''),
  );
}

/** Keys up to this many UTF-8 bytes are kept whole; a btree index row holds at most 2,704. */
const KEY_MAX_BYTES = 1_000;

/**
 * A key that always fits an index row: a longer one (a hostile 900-character CJK title made a 3 KB key,
 * and the whole feed's transaction failed on every poll) keeps its start and a hash of the whole.
 */
function capKey(key: string): string {
  if (new TextEncoder().encode(key).length <= KEY_MAX_BYTES) return key;
  return `${Array.from(key).slice(0, 200).join('')}~${hash53(key).toString(36)}`;
}

/** A 53-bit string hash (cyrb53): stable across runs and platforms, not cryptographic. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
