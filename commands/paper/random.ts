import type { CommandDeps, ComponentInput, ComponentReply } from '../../src/core/command.ts';
import { CUSTOM_IDS } from '../../src/core/custom-id.ts';
import { UserFacingError } from '../../src/core/errors.ts';
import { readingWeight, weightedPick } from '../../src/core/papers/pick.ts';
import { errorReply, type Reply } from '../../src/core/reply.ts';
import { paperCardReply } from '../../src/core/views/paper-card.ts';
import { getPaperById, getPaperDetail } from '../../db/queries/papers.ts';
import { familyPaperPool } from '../../db/queries/status.ts';

const ANY = '*';

/**
 * `/paper random [topic]`: a GRPO-family paper drawn at random, weighted toward classifier
 * confidence, Hugging Face upvotes, papers with notes and (lightly) citations, as a paper card with an "Another one"
 * button (`paper:random:<callerUserId>:<topic or *>`).
 */
export async function randomPaper(deps: CommandDeps, userId: string, topic?: string): Promise<Reply> {
  const pool = await familyPaperPool(deps.db, topic);
  const pick = weightedPick(pool, readingWeight, deps.random ?? Math.random);
  const paper = pick && (await getPaperById(deps.db, pick.id));
  if (!paper) {
    throw new UserFacingError(
      topic
        ? `No GRPO-family papers in ${topic} yet. /topics shows the topics and their counts.`
        : 'No GRPO-family papers in the corpus yet. Run `grpo-digest seed` or wait for the next poll.',
    );
  }
  const card = paperCardReply(await getPaperDetail(deps.db, paper));
  const another = {
    kind: 'action' as const,
    customId: CUSTOM_IDS.paperRandom.encode({ user: userId, topic: topic ?? ANY }),
    label: 'Another one',
    style: 'secondary' as const,
  };
  return {
    ...card,
    content: `A GRPO-family paper worth reading${topic ? ` in ${topic}` : ''}:`,
    components: [...(card.components ?? []), [another]],
  };
}

/** "Another one": a new draw in place of the card, for the person who asked. */
export async function pressRandom(input: ComponentInput, deps: CommandDeps): Promise<ComponentReply> {
  const pressed = CUSTOM_IDS.paperRandom.decode(input.customId);
  if (!pressed) return errorReply('That button no longer works. Run /paper random again.');
  const { user: owner, topic } = pressed;
  if (owner !== input.user.id)
    return errorReply('Only the person who asked can draw again. Run /paper random for your own.');
  const reply = await randomPaper(deps, owner, topic !== ANY ? topic : undefined);
  return { ...reply, update: true };
}
