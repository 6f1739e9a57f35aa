import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { CommandDeps } from '../../core/command.ts';
import { commands, findCommand, findComponentOwner } from '../../../commands/index.ts';
import { runCommand, runComponent } from '../../core/dispatch.ts';
import { isUserFacing } from '../../core/errors.ts';
import { errorReply } from '../../core/reply.ts';
import type { Reply } from '../../core/reply.ts';
import { parseCommandLine, parsePressLine } from './parse.ts';
import { savePictures } from './pictures.ts';
import { renderReply } from './render.ts';

export interface ConsoleOptions {
  input: Readable;
  output: Writable;
  /** Prompt and greet (a terminal); otherwise one command per line until end of input. */
  interactive: boolean;
  user?: { id: string; name: string };
}

/** Where the console saves pictures unless told otherwise: DATA_DIR/pictures. */
export function picturesDir(deps: Pick<CommandDeps, 'config'>): string {
  return path.resolve(deps.config.dataDir, 'pictures');
}

/**
 * Answers one console line; the same dispatcher the Discord adapter uses. Pictures in the answer are
 * saved under `pictures` (DATA_DIR/pictures) and shown as their paths.
 */
export async function answerLine(
  line: string,
  deps: CommandDeps,
  user = { id: 'console', name: 'console' },
  pictures = picturesDir(deps),
): Promise<string> {
  const show = async (reply: Reply & { update?: boolean }) =>
    renderReply(reply, undefined, await savePictures(reply.files, pictures));
  let parsed;
  try {
    const pressed = parsePressLine(line);
    if (pressed !== undefined) return await press(pressed, deps, user, show);
    parsed = parseCommandLine(
      line,
      findCommand,
      commands.map((c) => c.definition.name),
    );
  } catch (err) {
    if (isUserFacing(err)) return renderReply(errorReply(err.message));
    throw err;
  }
  // The console user runs the bot, so it may use the configuration commands.
  const reply = await runCommand(
    parsed.command,
    {
      user,
      canManage: true,
      subcommand: parsed.subcommand,
      options: parsed.options,
      guildId: 'console',
      channelId: 'console',
    },
    deps,
  );
  return show(reply);
}

/** `/press <custom id>`: a button press, routed like the Discord adapter routes one. */
async function press(
  id: string,
  deps: CommandDeps,
  user: { id: string; name: string },
  show: (reply: Reply & { update?: boolean }) => Promise<string>,
): Promise<string> {
  const owner = findComponentOwner(id);
  if (!owner)
    return renderReply(errorReply(`No button has the id "${id}". Copy it from the (/press ...) next to a button.`));
  const reply = await runComponent(
    owner,
    { user, canManage: true, guildId: 'console', channelId: 'console', customId: id },
    deps,
  );
  return show(reply);
}

/**
 * The console adapter: a terminal chat where slash commands are typed as in Discord.
 * Resolves when the user quits or the input ends.
 */
export async function runConsole(deps: CommandDeps, opts: ConsoleOptions): Promise<void> {
  const rl = createInterface({
    input: opts.input,
    output: opts.interactive ? opts.output : undefined,
    terminal: opts.interactive,
  });
  const write = (s: string) => opts.output.write(`${s}\n`);
  // Ctrl-C leaves like Ctrl-D: the loop ends and the caller closes the database.
  rl.on('SIGINT', () => rl.close());
  if (opts.interactive) {
    write('grpo-digest console. Type slash commands as in Discord, e.g. /paper search query:GSPO');
    write('/help lists the commands; /press <id> presses a button; /quit or Ctrl-D leaves.');
    rl.setPrompt('grpo> ');
    rl.prompt();
  }
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === '/quit' || line === '/exit') break;
    if (line && !line.startsWith('#')) write(await answerLine(line, deps, opts.user));
    if (opts.interactive) rl.prompt();
  }
  rl.close();
}
