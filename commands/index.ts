import type { Command } from '../src/core/command.ts';
import { ask } from './ask.ts';
import { digest } from './digest.ts';
import { family } from './family.ts';
import { createHelp } from './help.ts';
import { compare } from './compare.ts';
import { paper } from './paper.ts';
import { queue } from './queue.ts';
import { status } from './status.ts';
import { subscribe } from './subscribe.ts';
import { subscriptions, unsubscribe } from './subscriptions.ts';
import { topics } from './topics.ts';
import { trends } from './trends.ts';

/** Every slash command, explicitly listed (a test checks names, descriptions and option limits). */
export const commands: readonly Command[] = [
  paper,
  compare,
  ask,
  digest,
  queue,
  subscribe,
  unsubscribe,
  subscriptions,
  topics,
  family,
  trends,
  status,
  createHelp(() => commands),
];

export function findCommand(name: string): Command | undefined {
  return commands.find((c) => c.definition.name === name);
}

/** The command that answers a custom id: by its first segment, or a declared extra prefix (`vote:`). */
export function findComponentOwner(customIdValue: string): Command | undefined {
  const prefix = customIdValue.split(':', 1)[0] ?? '';
  return commands.find((c) => c.definition.name === prefix || c.componentPrefixes?.includes(prefix));
}
