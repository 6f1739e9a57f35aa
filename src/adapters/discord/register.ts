import { createHash } from 'node:crypto';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  Routes,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandSubcommandOption,
  type REST,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord.js';
import type { CommandDefinition, OptionDefinition, OptionType } from '../../core/command.ts';
import type { Db } from '../../../db/client.ts';
import { getState, setState } from '../../../db/queries/app-state.ts';

export type CommandJson = RESTPutAPIApplicationCommandsJSONBody[number];

const OPTION_TYPES: Record<OptionType, ApplicationCommandOptionType> = {
  string: ApplicationCommandOptionType.String,
  integer: ApplicationCommandOptionType.Integer,
  number: ApplicationCommandOptionType.Number,
  boolean: ApplicationCommandOptionType.Boolean,
  user: ApplicationCommandOptionType.User,
  channel: ApplicationCommandOptionType.Channel,
  role: ApplicationCommandOptionType.Role,
};

/** `app_state` key of the hash of what was last registered (definitions + scope). */
export const COMMANDS_HASH_KEY = 'discord:commands-hash';

function optionJson(o: OptionDefinition): APIApplicationCommandBasicOption {
  const out: Record<string, unknown> = {
    type: OPTION_TYPES[o.type],
    name: o.name,
    description: o.description,
    required: o.required ?? false,
  };
  if (o.autocomplete) out.autocomplete = true;
  else if (o.choices?.length) out.choices = o.choices.map((c) => ({ name: c.name, value: c.value }));
  if (o.minValue !== undefined) out.min_value = o.minValue;
  if (o.maxValue !== undefined) out.max_value = o.maxValue;
  if (o.minLength !== undefined) out.min_length = o.minLength;
  if (o.maxLength !== undefined) out.max_length = o.maxLength;
  return out as unknown as APIApplicationCommandBasicOption;
}

/** Discord refuses a required option after an optional one: required first, otherwise in declared order. */
function optionsJson(options: readonly OptionDefinition[] = []): APIApplicationCommandBasicOption[] {
  return [...options.filter((o) => o.required), ...options.filter((o) => !o.required)].map(optionJson);
}

/** One platform-neutral definition as Discord application command JSON (a chat-input command). */
export function commandJson(def: CommandDefinition): CommandJson {
  const options = def.subcommands?.length
    ? def.subcommands.map((s): APIApplicationCommandSubcommandOption => ({
        type: ApplicationCommandOptionType.Subcommand,
        name: s.name,
        description: s.description,
        options: optionsJson(s.options),
      }))
    : optionsJson(def.options);
  return {
    type: ApplicationCommandType.ChatInput,
    name: def.name,
    description: def.description,
    options,
    default_member_permissions: def.defaultMemberPermissions ?? null,
  };
}

export interface RegisterScope {
  applicationId: string;
  /** A development server (instant updates); unset: global. */
  guildId?: string;
}

/** Replaces every command of the application (or of one server) with these, in one PUT (bulk overwrite). */
export async function registerCommands(
  rest: REST,
  defs: readonly CommandDefinition[],
  scope: RegisterScope,
): Promise<number> {
  const route = scope.guildId
    ? Routes.applicationGuildCommands(scope.applicationId, scope.guildId)
    : Routes.applicationCommands(scope.applicationId);
  const body = defs.map(commandJson);
  const result = (await rest.put(route, { body })) as unknown[];
  return Array.isArray(result) ? result.length : body.length;
}

/** A stable hash of what would be registered where: changes when a definition or the scope changes. */
export function commandsHash(defs: readonly CommandDefinition[], scope: RegisterScope): string {
  const payload = JSON.stringify({
    scope: { app: scope.applicationId, guild: scope.guildId ?? null },
    commands: defs.map(commandJson),
  });
  return createHash('sha256').update(payload).digest('hex');
}

/**
 * Registers the commands at start-up only when they (or the scope) changed since the last
 * registration recorded in `app_state`, so restarts do not spend Discord's daily command-create
 * budget. The hash is stored after a successful PUT only: a failed registration is retried next start.
 */
export async function registerIfChanged(
  db: Db,
  rest: REST,
  defs: readonly CommandDefinition[],
  scope: RegisterScope,
  opts: { now: Date; force?: boolean },
): Promise<{ registered: boolean; hash: string }> {
  const hash = commandsHash(defs, scope);
  const stored = await getState<{ hash?: string }>(db, COMMANDS_HASH_KEY);
  if (!opts.force && stored?.hash === hash) return { registered: false, hash };
  await registerCommands(rest, defs, scope);
  const value = { hash, guildId: scope.guildId ?? null, count: defs.length };
  await setState(db, COMMANDS_HASH_KEY, value, opts.now);
  return { registered: true, hash };
}
