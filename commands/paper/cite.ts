import type { CommandDeps } from '../../src/core/command.ts';
import { bibtexEntry } from '../../src/core/papers/bibtex.ts';
import type { Reply } from '../../src/core/reply.ts';
import { citeReply } from '../../src/core/views/bibtex.ts';
import { citablePaper } from '../../db/queries/bibtex.ts';
import type { Paper } from '../../db/schema.ts';

/** `/paper cite id:`: the paper's BibTeX entry, to paste into a .bib file (the venue when arXiv knows it). */
export async function citePaper(deps: CommandDeps, paper: Paper): Promise<Reply> {
  const row = await citablePaper(deps.db, paper.id);
  return citeReply(bibtexEntry(row ?? paper));
}
