import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, cli } from '../helpers/cli.ts';
import { createTestDb } from '../helpers/db.ts';
import { APP_ID, GUILD_ID, startFakeDiscord, type FakeDiscord } from '../fakes/discord.ts';

/** The real CLI process: `start` with DISCORD_TOKEN runs the bot, and SIGTERM shuts it down cleanly with exit code 0. */
describe('grpo-digest start on Discord', () => {
  let fake: FakeDiscord;
  let t: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    fake = await startFakeDiscord({ shards: 2 });
    t = await createTestDb();
  });
  afterAll(() => fake?.close());

  it('names the missing DISCORD_APPLICATION_ID before starting anything', async () => {
    const run = await cli(['start'], { DATABASE_URL: t.url, DISCORD_TOKEN: 'fake-token' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DISCORD_APPLICATION_ID/);
    expect(fake.requests).toHaveLength(0);
  });

  it('runs every shard in one process, registers, answers, and exits 0 after a graceful shutdown on SIGTERM', async () => {
    const child = spawn(path.join(ROOT, 'bin/grpo-digest'), ['start'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME ?? '/tmp',
        LOG_LEVEL: 'info',
        DATABASE_URL: t.url,
        DISCORD_TOKEN: 'fake-token',
        DISCORD_APPLICATION_ID: APP_ID,
        DISCORD_GUILD_ID: GUILD_ID,
        DISCORD_API_BASE: fake.api,
        DISCORD_SHARDS: 'auto',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    // Guild registration (DISCORD_GUILD_ID), then the scheduler: the bot is up.
    await fake.waitForRequest(
      (r) => r.method === 'PUT' && r.path === `/applications/${APP_ID}/guilds/${GUILD_ID}/commands`,
      60_000,
    );
    expect(fake.gateway.filter((p) => p.op === 2).map((p) => p.d.shard)).toEqual(
      expect.arrayContaining([
        [0, 2],
        [1, 2],
      ]),
    );
    const i = fake.sendChatInput({ name: 'help' });
    expect((await fake.waitForResponse(i)).body.type).toBe(4);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/"msg":"shut down"/);
  }, 90_000);
});
