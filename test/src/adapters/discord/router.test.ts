import { ApplicationCommandOptionType, PermissionFlagsBits, type CommandInteractionOption } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { resolvedContext } from '../../../../src/adapters/discord/router.ts';

describe('resolvedContext', () => {
  it("reads a role option's mentionability out of a subcommand, and the bot's Mention All Roles permission", () => {
    const data = [
      {
        name: 'setup',
        type: ApplicationCommandOptionType.Subcommand,
        options: [
          { name: 'channel', type: ApplicationCommandOptionType.Channel, value: '100' },
          {
            name: 'ping_role',
            type: ApplicationCommandOptionType.Role,
            value: '777',
            role: { id: '777', name: 'papers', mentionable: false },
          },
        ],
      },
    ] as unknown as CommandInteractionOption[];
    const without = { has: (flag: bigint) => flag !== PermissionFlagsBits.MentionEveryone };
    expect(resolvedContext(data, without)).toEqual({
      roles: { 777: { name: 'papers', mentionable: false } },
      botMentionsAllRoles: false,
    });
    expect(resolvedContext(data, { has: () => true })!.botMentionsAllRoles).toBe(true);
    expect(resolvedContext([], null)).toEqual({ roles: {} });
  });

  it("reads a channel option's posting rights: the member's resolved permissions, the bot's from Discord or the cached server", () => {
    const has = (...flags: bigint[]) => ({ has: (f: bigint) => flags.includes(f) });
    const { ViewChannel: V, SendMessages: S, EmbedLinks: E } = PermissionFlagsBits;
    const option = (channel: object) =>
      [
        {
          name: 'channel',
          type: ApplicationCommandOptionType.Channel,
          value: '100',
          channel: { id: '100', ...channel },
        },
      ] as unknown as CommandInteractionOption[];
    const readOnly = option({ permissions: has(V), appPermissions: has(V, S, E) });
    expect(resolvedContext(readOnly, null)!.channels).toEqual({ 100: { memberCanPost: false, botCanPost: true } });
    const botMuted = option({ permissions: has(V, S), appPermissions: has(V, S) });
    expect(resolvedContext(botMuted, null)!.channels).toEqual({ 100: { memberCanPost: true, botCanPost: false } });
    // Uncached: raw API data, a bitfield string; no app permissions and no cached bot member: unknown.
    const raw = option({ permissions: String(V | S) });
    expect(resolvedContext(raw, null)!.channels).toEqual({ 100: { memberCanPost: true, botCanPost: null } });
    const cached = option({ permissions: has(V, S), appPermissions: null, permissionsFor: () => has(V, S, E) });
    expect(resolvedContext(cached, null, { id: 'me' })!.channels).toEqual({
      100: { memberCanPost: true, botCanPost: true },
    });
  });
});
