import { optionsOf, type Command, type CommandDefinition } from '../src/core/command.ts';
import { UserFacingError } from '../src/core/errors.ts';
import { trainingOf } from '../src/services/summarize/settings.ts';
import { compareReply } from '../src/core/views/compare.ts';
import { resolvePaper } from './paper/resolve.ts';

const definition = {
  name: 'compare',
  description: 'Training settings and GRPO changes of 2 to 4 papers side by side',
  options: [
    {
      name: 'papers',
      description: 'arXiv ids, links or family names, e.g. 2507.18071 2504.16084 (titles: separate with ;)',
      type: 'string',
      required: true,
      minLength: 3,
      maxLength: 600,
    },
  ],
} as const satisfies CommandDefinition;

/** What a user typed as 2-4 papers: `;` or `|` separate titles; otherwise spaces and commas separate ids and links. */
export function splitRefs(typed: string): string[] {
  const parts = /[;|]/.test(typed) ? typed.split(/[;|]/) : typed.split(/[\s,]+/);
  return [...new Set(parts.map((p) => p.trim()).filter(Boolean))];
}

/** `/compare papers:<a> <b> [c] [d]`: the papers' settings (quoted on demand) and GRPO delta in one table. */
export const compare: Command = {
  definition,
  async execute(input, deps) {
    const refs = splitRefs(optionsOf(definition, input).papers);
    if (refs.length < 2 || refs.length > 4) {
      throw new UserFacingError(
        `Give 2 to 4 papers (you gave ${refs.length}), e.g. /compare papers:2507.18071 2504.16084. Separate titles with ;`,
      );
    }
    const papers = [];
    for (const ref of refs) papers.push(await resolvePaper(deps, ref));
    if (new Set(papers.map((p) => p.id)).size < papers.length)
      throw new UserFacingError('Two of those name the same paper; give 2 to 4 different papers.');
    const training = await trainingOf(
      deps.db,
      papers.map((p) => p.id),
    );
    return compareReply(
      papers.map((p) => ({ paper: p, settings: training.get(p.id)!.settings, delta: training.get(p.id)!.delta })),
    );
  },
};
