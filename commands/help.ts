import type { Command } from '../src/core/command.ts';
import { commandUsage } from '../src/core/usage.ts';

/** `/help`: what the bot can do, generated from the command definitions so it never goes stale. */
export function createHelp(all: () => readonly Command[]): Command {
  return {
    definition: { name: 'help', description: 'What this bot can do and how to ask it' },
    async execute() {
      const lines = all().flatMap((c) => commandUsage(c.definition));
      return {
        embeds: [
          {
            title: 'grpo-digest: GRPO-family papers in chat',
            description: [
              'Ask for papers, follow the field, and pick what your reading group reads next.',
              '',
              ...lines.map((l) => `\`${l.usage}\` ${l.description}`),
            ].join('\n'),
            footer: 'Options in [brackets] are optional. Paper text is shown as data and never pings anyone.',
          },
        ],
        ephemeral: true,
      };
    },
  };
}
