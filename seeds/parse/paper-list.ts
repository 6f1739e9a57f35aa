/**
 * Files 002 and 003: a BibTeX-derived paper list followed by per-paper notes.
 *   - [25/03] **<title>**
 *   [[Paper](http://arxiv.org/pdf/<id>v<n>)] [[Code/Page](<link or empty>)] [[TLDR/Notes](#<anchor>)]
 *   ...
 *   # TLDR/Notes
 *   ## <anchor>
 *   ### Abstract            (English, hard-wrapped; in 003 one line, fenced with ```)
 *   ### 🌟 论文解读 | ...    (the Chinese note, mojibake in the file: see notes.ts)
 */
import { parseArxivId } from '../../src/core/papers/identity.ts';
import type { SeedFile, SeedPaper } from '../../src/core/seeds/types.ts';
import { parseNote, type RepairFn } from './notes.ts';
import { cleanCodeUrl, codeLinkFields, splitLines, unwrap } from './text.ts';

const ITEM =
  /^- \[(\d{2})\/(\d{2})\] \*\*(.+?)\*\*\s*\n\[\[Paper\]\(([^)]*)\)\] \[\[Code\/Page\]\((.*?)\)\] \[\[TLDR\/Notes\]\(#([^)]*)\)\]/gm;
const NOTES_HEADER = /^# TLDR\/Notes\s*$/m;

export interface PaperListOptions {
  file: Extract<SeedFile, '002' | '003'>;
  repair: RepairFn;
}

export function parsePaperList(text: string, { file, repair }: PaperListOptions): SeedPaper[] {
  const split = text.search(NOTES_HEADER);
  const list = split >= 0 ? text.slice(0, split) : text;
  const notes = split >= 0 ? readNoteBlocks(text.slice(split)) : new Map<string, string[]>();

  return [...list.matchAll(ITEM)].map((m): SeedPaper => {
    const [, yy, mm, rawTitle, pdfUrl, code, anchor] = m;
    const arxiv = parseArxivId(pdfUrl ?? '');
    if (!arxiv) throw new Error(`${file}: no arXiv id in "${pdfUrl}" for "${rawTitle}"`);
    const block = notes.get(anchor ?? '');
    const { abstract, noteText } = block ? splitNoteBlock(block) : {};
    return {
      file,
      entryId: anchor ?? arxiv.id,
      arxivId: arxiv.id,
      ...(arxiv.version !== undefined && { arxivVersion: arxiv.version }),
      title: (rawTitle ?? '').trim(),
      publishedOn: `20${yy}-${mm}`,
      ...(pdfUrl && { pdfUrl }),
      ...codeLinkFields(cleanCodeUrl(code ?? '')),
      ...(abstract && { abstract }),
      ...(noteText && { note: parseNote(noteText, repair) }),
    };
  });
}

/** Note blocks by anchor: the lines between one `## <anchor>` and the next. */
function readNoteBlocks(notes: string): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of splitLines(notes)) {
    const anchor = /^## (\S.*)$/.exec(line)?.[1];
    if (anchor !== undefined) blocks.set(anchor.trim(), (current = []));
    else current?.push(line);
  }
  return blocks;
}

/**
 * Splits a note block into the English abstract and the (still damaged) Chinese note. Code
 * fences are dropped: 003 wraps each note in an unbalanced pair of them.
 */
function splitNoteBlock(block: string[]): { abstract?: string; noteText?: string } {
  const lines = block.filter((line) => !/^\s*```\s*$/.test(line));
  const abstractAt = lines.findIndex((line) => /^### Abstract\s*$/i.test(line));
  const noteAt = lines.findIndex((line, i) => i > abstractAt && /^### /.test(line));
  const abstractEnd = noteAt >= 0 ? noteAt : lines.length;
  const abstract = abstractAt >= 0 ? unwrap(lines.slice(abstractAt + 1, abstractEnd).join('\n')) : '';
  const noteText = noteAt >= 0 ? lines.slice(noteAt).join('\n').trim() : '';
  return { ...(abstract && { abstract }), ...(noteText && { noteText }) };
}
