import type { CommandDeps } from '../../src/core/command.ts';
import { UserFacingError } from '../../src/core/errors.ts';
import type { Paper } from '../../db/schema.ts';
import { lookupPaper } from '../../src/services/search/lookup.ts';

/** The paper a user named (arXiv id, link, title or family name), or a UserFacingError that says what to try instead. */
export async function resolvePaper(deps: CommandDeps, ref: string): Promise<Paper> {
  const found = await lookupPaper(deps.db, ref);
  if (found.paper) return found.paper;
  switch (found.reason) {
    case 'malformed-id':
      throw new UserFacingError(
        `"${ref}" is not a valid arXiv id. Use one like 2507.18071 (a version such as v2 is fine), a link, or a title.`,
      );
    case 'unknown-id':
      throw new UserFacingError(
        `arXiv ${found.id ?? ref} is not in the corpus yet. Try /paper search with words from its title.`,
      );
    case 'no-title-match':
      throw new UserFacingError(`No paper titled "${ref}". Try /paper search query:${ref.slice(0, 60)}`);
    case 'family-not-stored':
      throw new UserFacingError(
        `${found.family}'s defining paper (arXiv ${found.id}) is not in the corpus yet; /family show name:${found.family} lists the stored papers that build on it.`,
      );
  }
}
