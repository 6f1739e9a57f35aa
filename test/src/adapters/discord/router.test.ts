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
});
