/**
 * File 000: hand-curated entries. Each entry is, one item per line (blank lines vary):
 * English title, HF paper link, arXiv link, optional GitHub link, optional organisation (Chinese),
 * Chinese title, English abstract, Chinese abstract.
 */
import { parseArxivId } from '../../src/core/papers/identity.ts';
import type { SeedPaper } from '../../src/core/seeds/types.ts';
import { codeLinkFields, isMostlyCjk, splitLines } from './text.ts';

const HF_LINK = /^https?:\/\/huggingface\.co\/papers\//;

export function parseCurated(text: string): SeedPaper[] {
  const lines = splitLines(text).filter((line) => line.trim() !== '');
  // The HF link is the one line every entry has in the same place: the title is just above it.
  const starts = lines.flatMap((line, i) => (HF_LINK.test(line) ? [i - 1] : []));
  return starts.map((start, n) => {
    const end = starts[n + 1] ?? lines.length;
    return parseEntry(lines.slice(start, end));
  });
}

function parseEntry(block: string[]): SeedPaper {
  const [title, hfLink] = block;
  if (!title || !hfLink) throw new Error(`000: entry without title: ${block.join(' | ')}`);
  const urls = block.slice(1).filter((line) => /^https?:\/\//.test(line));
  const rest = block.slice(1).filter((line) => !/^https?:\/\//.test(line));

  const ids = urls.map(parseArxivId).filter((id) => id !== null);
  const arxiv = ids[0];
  if (!arxiv) throw new Error(`000: no arXiv id for "${title}"`);
  const github = urls.find((url) => /github\.com\//.test(url));

  // From the end: Chinese abstract(s) after the English abstract; before it the Chinese title,
  // and before that the organisation, which some entries leave out.
  const enIndex = rest.findLastIndex((line) => !isMostlyCjk(line));
  const abstract = enIndex >= 0 ? rest[enIndex] : undefined;
  const abstractZh = enIndex >= 0 ? rest.slice(enIndex + 1).join('\n') : undefined;
  const head = enIndex >= 0 ? rest.slice(0, enIndex) : rest;
  const titleZh = head.at(-1);
  const organization = head.length > 1 ? head.slice(0, -1).join(' ') : undefined;

  return {
    file: '000',
    entryId: arxiv.id,
    arxivId: arxiv.id,
    ...(arxiv.version !== undefined && { arxivVersion: arxiv.version }),
    title: title.trim(),
    ...(titleZh && { titleZh }),
    ...(abstract && { abstract: abstract.trim() }),
    ...(abstractZh && { abstractZh }),
    ...(organization && { organization }),
    ...codeLinkFields(github),
  };
}
