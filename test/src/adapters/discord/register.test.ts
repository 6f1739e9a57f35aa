import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST } from 'discord.js';
import type { CommandDefinition } from '../../../../src/core/command.ts';
import { commandJson, commandsHash, registerIfChanged } from '../../../../src/adapters/discord/register.ts';
import { commands } from '../../../../commands/index.ts';
import { createTestDb } from '../../../helpers/db.ts';
import { APP_ID, GUILD_ID, startFakeDiscord, type FakeDiscord } from '../../../fakes/discord.ts';

const def: CommandDefinition = {
  name: 'digest',
  description: 'Configure this channel’s digest',
  defaultMemberPermissions: '32',
  subcommands: [
    {
      name: 'setup',
      description: 'Post a digest here',
      options: [
        { name: 'time', description: 'Local time HH:MM', type: 'string', minLength: 5, maxLength: 5 },
        { name: 'timezone', description: 'IANA time zone', type: 'string', required: true, autocomplete: true },
        { name: 'max', description: 'Papers per digest', type: 'integer', minValue: 1, maxValue: 25 },
        {
          name: 'cadence',
          description: 'How often',
          type: 'string',
          choices: [
            { name: 'daily', value: 'daily' },
            { name: 'weekly', value: 'weekly' },
          ],
        },
        { name: 'score', description: 'Minimum score', type: 'number', minValue: 0, maxValue: 1 },
        { name: 'quiet', description: 'Quiet-day notice', type: 'boolean' },
        { name: 'role', description: 'Role to ping', type: 'role' },
        { name: 'channel', description: 'Where', type: 'channel' },
        { name: 'user', description: 'Who', type: 'user' },
      ],
    },
    { name: 'off', description: 'Stop the digest here' },
  ],
};

describe('commandJson', () => {
  it('maps a definition with subcommands to chat-input JSON, required options first', () => {
    const json = commandJson(def);
    expect(json).toMatchObject({
      type: 1,
      name: 'digest',
      description: 'Configure this channel’s digest',
      default_member_permissions: '32',
    });
    const [setup, off] = (json as { options?: unknown[] }).options as {
      type: number;
      name: string;
      options: Record<string, unknown>[];
    }[];
    expect(setup!.type).toBe(1);
    expect(off).toEqual({ type: 1, name: 'off', description: 'Stop the digest here', options: [] });
    expect(setup!.options.map((o) => [o.name, o.type])).toEqual([
      ['timezone', 3],
      ['time', 3],
      ['max', 4],
      ['cadence', 3],
      ['score', 10],
      ['quiet', 5],
      ['role', 8],
      ['channel', 7],
      ['user', 6],
    ]);
    expect(setup!.options[0]).toEqual({
      type: 3,
      name: 'timezone',
      description: 'IANA time zone',
      required: true,
      autocomplete: true,
    });
    expect(setup!.options[1]).toMatchObject({ required: false, min_length: 5, max_length: 5 });
    expect(setup!.options[2]).toMatchObject({ min_value: 1, max_value: 25 });
    expect(setup!.options[3]).toMatchObject({
      choices: [
        { name: 'daily', value: 'daily' },
        { name: 'weekly', value: 'weekly' },
      ],
    });
  });

  it('maps plain options and leaves default permissions open when unset', () => {
    const json = commandJson({
      name: 'help',
      description: 'Every command',
      options: [{ name: 'command', description: 'One command', type: 'string' }],
    });
    expect(json).toMatchObject({
      type: 1,
      default_member_permissions: null,
      options: [{ type: 3, name: 'command', required: false }],
    });
  });

  it('maps every real command', () => {
    for (const c of commands) expect(commandJson(c.definition).name).toBe(c.definition.name);
  });
});

describe('commandsHash', () => {
  it('changes with a definition or the scope, and only then', () => {
    const base = commandsHash([def], { applicationId: APP_ID });
    expect(commandsHash([structuredClone(def)], { applicationId: APP_ID })).toBe(base);
    expect(commandsHash([{ ...def, description: 'Changed' }], { applicationId: APP_ID })).not.toBe(base);
    expect(commandsHash([def], { applicationId: APP_ID, guildId: GUILD_ID })).not.toBe(base);
  });
});

describe('registerIfChanged', () => {
  let fake: FakeDiscord;
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let rest: REST;
  beforeAll(async () => {
    fake = await startFakeDiscord();
    t = await createTestDb();
    rest = new REST({ api: fake.api, retries: 0 }).setToken('fake-token');
  });
  afterAll(() => fake.close());
  const puts = () => fake.requests.filter((r) => r.method === 'PUT');

  it('bulk-overwrites when the definitions or scope changed, and skips otherwise', async () => {
    expect(await registerIfChanged(t.db, rest, [def], { applicationId: APP_ID }, { now: new Date() })).toMatchObject({
      registered: true,
    });
    expect(puts().map((r) => r.path)).toEqual([`/applications/${APP_ID}/commands`]);
    expect(puts()[0]!.auth).toBe('Bot fake-token');
    expect(puts()[0]!.body).toEqual([commandJson(def)]);

    expect(await registerIfChanged(t.db, rest, [def], { applicationId: APP_ID }, { now: new Date() })).toMatchObject({
      registered: false,
    });
    expect(puts()).toHaveLength(1);

    await registerIfChanged(
      t.db,
      rest,
      [def, { name: 'help', description: 'Every command' }],
      { applicationId: APP_ID },
      { now: new Date() },
    );
    expect(puts()).toHaveLength(2);

    await registerIfChanged(
      t.db,
      rest,
      [def, { name: 'help', description: 'Every command' }],
      { applicationId: APP_ID, guildId: GUILD_ID },
      { now: new Date() },
    );
    expect(puts()[2]!.path).toBe(`/applications/${APP_ID}/guilds/${GUILD_ID}/commands`);

    expect(
      await registerIfChanged(t.db, rest, [def], { applicationId: APP_ID }, { force: true, now: new Date() }),
    ).toMatchObject({ registered: true });
    expect(puts()).toHaveLength(4);
  });

  it('does not record a registration that failed, so the next start retries', async () => {
    fake.failNext(/commands$/, 500, { message: 'Internal Server Error' }, {}, 'PUT');
    const other: CommandDefinition = { name: 'status', description: 'Bot status' };
    await expect(
      registerIfChanged(t.db, rest, [other], { applicationId: APP_ID }, { now: new Date() }),
    ).rejects.toThrow();
    expect(await registerIfChanged(t.db, rest, [other], { applicationId: APP_ID }, { now: new Date() })).toMatchObject({
      registered: true,
    });
  });
});
