import type { Command, CommandDeps, CommandInput, ComponentInput, ComponentReply } from './command.ts';
import { isDatabaseUnavailable, isUserFacing } from './errors.ts';
import { validateOptions } from './options.ts';
import { errorReply, type Reply } from './reply.ts';

export const GENERIC_ERROR =
  'Something went wrong on our side while answering that. It has been logged; please try again in a moment.';
export const DATABASE_DOWN =
  'The bot cannot reach its database right now (it is restarting or unreachable); please try again in a minute.';

/**
 * Runs one command for any adapter: options are validated server side, a user's mistake becomes a
 * short ephemeral message, and a bug is logged with context and answered with a generic message.
 * Never throws.
 */
export async function runCommand(command: Command, input: CommandInput, deps: CommandDeps): Promise<Reply> {
  const started = performance.now();
  const log = deps.log.child({
    command: command.definition.name,
    subcommand: input.subcommand,
    user: input.user.id,
    guild: input.guildId,
  });
  try {
    const options = validateOptions(command.definition, input);
    const reply = await command.execute({ ...input, options }, deps);
    log.info({ ms: Math.round(performance.now() - started) }, 'command answered');
    return reply;
  } catch (err) {
    if (isUserFacing(err)) {
      log.info({ reason: err.message }, 'command refused');
      return errorReply(err.message);
    }
    if (isDatabaseUnavailable(err)) {
      log.warn({ err }, 'command failed: the database is unavailable');
      return errorReply(DATABASE_DOWN);
    }
    log.error({ err, options: input.options }, 'command failed');
    return errorReply(GENERIC_ERROR);
  }
}

/** Runs a button or menu press the same way: user mistakes ephemeral, bugs logged and answered generically. Never throws. */
export async function runComponent(
  command: Command,
  input: ComponentInput,
  deps: CommandDeps,
): Promise<ComponentReply> {
  const log = deps.log.child({
    command: command.definition.name,
    customId: input.customId,
    user: input.user.id,
    guild: input.guildId,
  });
  if (!command.component) {
    log.warn('button for a command without component handling');
    return errorReply('That button no longer works. Run the command again.');
  }
  try {
    return await command.component(input, deps);
  } catch (err) {
    if (isUserFacing(err)) return errorReply(err.message);
    if (isDatabaseUnavailable(err)) {
      log.warn({ err }, 'component failed: the database is unavailable');
      return errorReply(DATABASE_DOWN);
    }
    log.error({ err }, 'component failed');
    return errorReply(GENERIC_ERROR);
  }
}
