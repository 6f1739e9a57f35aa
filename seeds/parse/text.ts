/** Small text helpers shared by the seed parsers. */

/**
 * Lines with trailing spaces, tabs and `\r` removed (the saved pages mix line endings). Not a
 * trailing NBSP: in the mojibake notes of 002/003 it is byte 0xA0 of a damaged character (码 =
 * E7 A0 81 ends a line as `ç` + NBSP), and trimming it took that byte away.
 */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.replace(/[ \t\r]+$/, ''));
}

/** Joins hard-wrapped lines (arXiv abstracts in the BibTeX exports) into one paragraph. */
export function unwrap(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** True when most letters are CJK: tells the Chinese lines of file 000 from the English ones. */
export function isMostlyCjk(text: string): boolean {
  const cjk = text.match(/[\p{Script=Han}]/gu)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  return cjk > latin;
}

/**
 * Cleans a code/page link from the BibTeX exports: they keep LaTeX leftovers
 * (`atom}{https://...}.`, `Multi-RM}{\underline{...}}`) and the sentence's final period
 * (`Patho-R1.`). Returns undefined for the empty `[[Code/Page]()]`.
 */
export function cleanCodeUrl(raw: string): string | undefined {
  let url = raw.trim().split(/[{}\s]/)[0] ?? '';
  url = url
    .replace(/[.,;]+$/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  return /^https?:\/\/\S+\.\S+/.test(url) ? url : undefined;
}

/** Splits a code link into the GitHub repository field or the generic project field. */
export function codeLinkFields(url: string | undefined): { githubUrl?: string; projectUrl?: string } {
  if (!url) return {};
  return /^https?:\/\/(www\.)?github\.com\//i.test(url) ? { githubUrl: url } : { projectUrl: url };
}
