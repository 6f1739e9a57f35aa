import type { CommandDeps } from '../../src/core/command.ts';
import { UserFacingError } from '../../src/core/errors.ts';
import { bibtexEntries } from '../../src/core/papers/bibtex.ts';
import type { Reply } from '../../src/core/reply.ts';
import { historyBibReply } from '../../src/core/views/bibtex.ts';
import { citableQueue } from '../../db/queries/bibtex.ts';

/** `/queue history bibtex:True`: every paper this server's reading group has read, as a .bib file. */
export async function historyBibtex(deps: CommandDeps, guildId: string): Promise<Reply> {
  const read = await citableQueue(deps.db, guildId, 'history');
  if (read.length === 0)
    throw new UserFacingError('The reading group has read nothing yet: /queue done marks a session read.');
  return historyBibReply(bibtexEntries(read));
}
