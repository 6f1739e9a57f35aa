/**
 * BibTeX in chat: one entry as a `bibtex` code block, or as a `.bib` file when the block would pass
 * Discord's 2,000 characters (a paper with a hundred authors); a list always as a file.
 */
import { bibtexFile, type BibtexEntry } from '../papers/bibtex.ts';
import { LIMITS, type Reply, type ReplyFile } from '../reply.ts';

/** A `.bib` file to attach; `name` is letters, digits and dashes (a citation key is). */
export function bibFile(name: string, text: string, description: string): ReplyFile {
  return { name: `${name}.bib`, data: new TextEncoder().encode(text), description };
}

/** `/paper cite`: the entry to copy. The entry holds no backtick (`bibtex-text.ts`), so the block cannot be closed early. */
export function citeReply(entry: BibtexEntry): Reply {
  const block = `\`\`\`bibtex\n${entry.text}\n\`\`\``;
  if (block.length <= LIMITS.content) return { content: block };
  return {
    content: `The BibTeX entry \`${entry.key}\` is too long for one message: it is attached as ${entry.key}.bib.`,
    files: [bibFile(entry.key, bibtexFile([entry]), `BibTeX entry ${entry.key}`)],
  };
}

/** `/queue history bibtex:True`: every paper the reading group has read, as one file. */
export function historyBibReply(entries: readonly BibtexEntry[]): Reply {
  const n = entries.length;
  return {
    content: `The reading group's history as BibTeX: ${n} paper${n === 1 ? '' : 's'}, in the order they were read.`,
    files: [bibFile('reading-group-history', bibtexFile(entries), `BibTeX entries of ${n} papers read`)],
  };
}
