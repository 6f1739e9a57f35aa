import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { Reply } from './reply.ts';
import type { Db } from '../db/client.ts';
import type { Notifier } from './delivery/notifier.ts';
import type { Poster } from './delivery/poster.ts';

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
  /** Where `/digest now` posts; absent where nothing can be posted (a plain CLI run). */
  poster?: Poster;
  /** Direct messages to users (reading-group voters); absent outside Discord. */
  notifier?: Notifier;
  /** When each scheduled job runs next, for `/status`; absent when no scheduler runs. */
  nextRuns?: () => Record<string, Date | null>;
  /** Random numbers in [0, 1) (`/paper random`); defaults to Math.random, tests pass a fixed sequence. */
  random?: () => number;
}

/**
 * A button or select-menu press. Custom ids are typed as `<command>:<action>[:<arg>...]` (at most
 * 100 characters); the adapter routes a press to the command named by the first segment.
 */
export interface ComponentInput {
  user: { id: string; name: string };
  guildId?: string;
  channelId?: string;
  canManage: boolean;
  customId: string;
  /** The segments after the command name: `paper:page:2` -> ['page', '2']. */
  args: string[];
  /** Select menus: the chosen values. */
  values?: string[];
}

/** A component's answer: a new message, or (`update`) a replacement of the message the button is on. */
export type ComponentReply = Reply & { update?: boolean };

export interface Choice {
  name: string;
  value: string;
}

export interface Command {
  definition: CommandDefinition;
  execute(input: CommandInput, deps: CommandDeps): Promise<Reply>;
  /** Suggestions for the focused option (Discord autocomplete; at most 25). */
  autocomplete?(input: CommandInput, focused: { name: string; value: string }, deps: CommandDeps): Promise<Choice[]>;
  /** Presses of this command's buttons and menus (custom ids starting with `<name>:`). */
  component?(input: ComponentInput, deps: CommandDeps): Promise<ComponentReply>;
  /** Other custom-id prefixes this command answers (e.g. `vote` for the digest's vote buttons). */
  componentPrefixes?: string[];
  /** Answers that may take more than a second (LLM, posting): the adapter defers first. */
  slow?: boolean | ((subcommand: string | undefined) => boolean);
}

/** Builds a typed custom id, checking Discord's 100-character limit. */
export function customId(command: string, ...args: (string | number)[]): string {
  const id = [command, ...args].join(':');
  if (id.length > 100) throw new RangeError(`custom id over 100 characters: ${id.slice(0, 40)}...`);
  return id;
}

/** Whether the adapter should defer before answering (`slow` may depend on the subcommand). */
export function isSlow(command: Command, subcommand?: string): boolean {
  return typeof command.slow === 'function' ? command.slow(subcommand) : command.slow === true;
}
