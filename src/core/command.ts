import type { AppDeps } from './deps.ts';
import type { Reply } from './reply.ts';

/** Option types, as Discord knows them. */
export type OptionType = 'string' | 'integer' | 'number' | 'boolean' | 'user' | 'channel' | 'role';

export interface OptionDefinition {
  name: string;
  description: string;
  type: OptionType;
  required?: boolean;
  autocomplete?: boolean;
  choices?: readonly { name: string; value: string | number }[];
  minValue?: number;
  maxValue?: number;
  minLength?: number;
  maxLength?: number;
}

export interface SubcommandDefinition {
  name: string;
  description: string;
  options?: readonly OptionDefinition[];
}

export interface CommandDefinition {
  name: string;
  description: string;
  options?: readonly OptionDefinition[];
  subcommands?: readonly SubcommandDefinition[];
  /** Bitfield string for `default_member_permissions`; the server-side check is still done in execute. */
  defaultMemberPermissions?: string;
}

export type OptionValue = string | number | boolean;

type OptionValueOf<O extends OptionDefinition> = O['type'] extends 'integer' | 'number'
  ? number
  : O['type'] extends 'boolean'
    ? boolean
    : string;
type OptionsFrom<L> = L extends readonly OptionDefinition[]
  ? { [O in L[number] as O extends { required: true } ? O['name'] : never]: OptionValueOf<O> } & {
      [O in L[number] as O extends { required: true } ? never : O['name']]?: OptionValueOf<O>;
    }
  : Record<never, never>;
type SubcommandName<D extends CommandDefinition> = NonNullable<D['subcommands']>[number]['name'];

/** The options of a command, or of one of its subcommands, typed from its `as const` definition. */
export type OptionsOf<D extends CommandDefinition, S extends string = never> = [S] extends [never]
  ? OptionsFrom<D['options']>
  : OptionsFrom<Extract<NonNullable<D['subcommands']>[number], { name: S }>['options']>;

/**
 * An input's options, typed from the definition they were validated against: `runCommand` checks
 * names, types, ranges and choices server side (src/core/options.ts) before `execute` is called.
 */
export function optionsOf<const D extends CommandDefinition, S extends SubcommandName<D> = never>(
  _def: D,
  input: Pick<CommandInput, 'options'>,
  _sub?: S,
): OptionsOf<D, S> {
  return input.options as unknown as OptionsOf<D, S>;
}

/** What a command receives, whatever the platform. */
export interface CommandInput {
  user: { id: string; name: string };
  guildId?: string;
  channelId?: string;
  /** Whether the caller may change server configuration (Manage Server or the moderator role). */
  canManage: boolean;
  subcommand?: string;
  options: Record<string, OptionValue>;
  /** What the platform knows about the roles given as options, and about the bot (Discord only; absent in the console). */
  resolved?: ResolvedContext;
}

export interface ResolvedContext {
  /** Role options by id: whether members may @mention the role. */
  roles?: Record<string, { name: string; mentionable: boolean }>;
  /** The bot has Mention @everyone, @here and All Roles where the command was used. */
  botMentionsAllRoles?: boolean;
  /**
   * Channel options by id, from the platform's permission data: whether the member may post there
   * (see and send), and whether the bot may (see, send, embed links; null when the platform did not
   * say). A channel named in the options but absent here could not be checked.
   */
  channels?: Record<string, { memberCanPost: boolean; botCanPost: boolean | null }>;
}

/** What a command may use: the app's dependencies without the raw driver. */
export type CommandDeps = Omit<AppDeps, 'sql'>;

/**
 * A button or select-menu press. Custom ids are typed (src/core/custom-id.ts); the adapter routes a
 * press to the command named by the id's first segment (or declaring it in `componentPrefixes`).
 */
export interface ComponentInput {
  user: { id: string; name: string };
  guildId?: string;
  channelId?: string;
  canManage: boolean;
  /** Decode it with its codec in src/core/custom-id.ts. */
  customId: string;
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

/** Whether the adapter should defer before answering (`slow` may depend on the subcommand). */
export function isSlow(command: Command, subcommand?: string): boolean {
  return typeof command.slow === 'function' ? command.slow(subcommand) : command.slow === true;
}
