import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('blames an unreachable Discord API on Discord, not on the database, and exits 1', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const run = await cli(['start'], {
      DATABASE_URL: t.url,
      DISCORD_TOKEN: 'fake-token',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_BASE: `http://127.0.0.1:${port}/api`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /could not log in to Discord \(http:\/\/127\.0\.0\.1:\d+\/api\): network error ECONNREFUSED/,
    );
    expect(run.stderr).not.toMatch(/database/);
  }, 60_000);

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
    try {
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
      // /help is answered, at once (type 4) or, on a busy machine, deferred (type 5) and then edited in.
      const i = fake.sendChatInput({ name: 'help' });
      const callback = (await fake.waitForResponse(i)).body as { type: number; data?: { embeds?: unknown[] } };
      expect([4, 5]).toContain(callback.type);
      const answer =
        callback.type === 4
          ? callback.data
          : ((await fake.waitForResponse(i, (r) => r.method === 'PATCH')).body as { embeds?: unknown[] });
      expect(JSON.stringify(answer)).toMatch(/\/paper search/);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toMatch(/"msg":"shut down"/);
    } finally {
      // A failed assertion must not leave the bot running after its test.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
