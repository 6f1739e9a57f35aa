import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { Reply } from './reply.ts';
import type { Db } from '../db/client.ts';

/** Option types, as Discord knows them. */
export type OptionType = 'string' | 'integer' | 'number' | 'boolean' | 'user' | 'channel' | 'role';

export interface OptionDefinition {
  name: string;
  description: string;
  type: OptionType;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; value: string | number }[];
  minValue?: number;
  maxValue?: number;
  minLength?: number;
  maxLength?: number;
}

export interface SubcommandDefinition {
  name: string;
  description: string;
  options?: OptionDefinition[];
}

export interface CommandDefinition {
  name: string;
  description: string;
  options?: OptionDefinition[];
  subcommands?: SubcommandDefinition[];
  /** Bitfield string for `default_member_permissions`; the server-side check is still done in execute. */
  defaultMemberPermissions?: string;
}

export type OptionValue = string | number | boolean;

/** What a command receives, whatever the platform. */
export interface CommandInput {
  user: { id: string; name: string };
  guildId?: string;
  channelId?: string;
  /** Whether the caller may change server configuration (Manage Server or the moderator role). */
  canManage: boolean;
  subcommand?: string;
  options: Record<string, OptionValue>;
}

/** Everything a command may use; built once by the composition root. */
export interface CommandDeps {
  db: Db;
  config: Config;
  log: Logger;
  now: () => Date;
}

export interface Choice {
  name: string;
  value: string;
}

export interface Command {
  definition: CommandDefinition;
  execute(input: CommandInput, deps: CommandDeps): Promise<Reply>;
  /** Suggestions for the focused option (Discord autocomplete; at most 25). */
  autocomplete?(input: CommandInput, focused: { name: string; value: string }, deps: CommandDeps): Promise<Choice[]>;
}
