import type { Command } from '../src/core/command.ts';
import { topicsReply } from '../src/core/views/topics.ts';
import { familyTopicCounts } from '../db/queries/status.ts';

/** `/topics`: the topic taxonomy, with GRPO-family paper counts. */
export const topics: Command = {
  definition: { name: 'topics', description: 'The topics papers are sorted into, with paper counts' },
  async execute(_input, deps) {
    return topicsReply(await familyTopicCounts(deps.db));
  },
};
