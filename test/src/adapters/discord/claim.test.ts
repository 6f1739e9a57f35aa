import { eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { pruneInteractionClaims } from '../../../../db/queries/interaction-claims.ts';
import { interactionClaims } from '../../../../db/schema.ts';
import { claimBy, databaseClaims } from '../../../../src/adapters/discord/claim.ts';
import { createTestDb } from '../../../helpers/db.ts';

describe('interaction claims', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let now = new Date('2026-11-28T10:00:00Z');
  const claimer = () => databaseClaims({ db: t.db, now: () => now, log: pino({ level: 'silent' }) });

  beforeAll(async () => {
    t = await createTestDb();
  });

  it('gives each interaction to exactly one of two processes claiming it at once', async () => {
    const [a, b] = [claimer(), claimer()];
    expect(a.by).not.toBe(b.by);
    const ids = Array.from({ length: 40 }, (_, n) => String(900000000000000000n + BigInt(n)));
    const won = await Promise.all(ids.map((id) => Promise.all([a.claim(id), b.claim(id)])));
    expect(won.every(([x, y]) => x !== y)).toBe(true);
    // A claim made is kept: a process seeing the interaction again (a replayed event) does not answer it twice.
    expect(await a.claim(ids[0]!)).toBe(false);
    expect(await b.claim(ids[0]!)).toBe(false);
    const rows = await t.db.select().from(interactionClaims);
    expect(rows.filter((r) => ids.includes(r.id))).toHaveLength(40);
  });

  it('prunes claims older than an hour, now and then, and keeps the newer ones', async () => {
    const old = new Date(now.getTime() - 2 * 3_600_000);
    await t.db.insert(interactionClaims).values([
      { id: '1', by: 'gone', claimedAt: old },
      { id: '2', by: 'gone', claimedAt: new Date(now.getTime() - 30 * 60_000) },
    ]);
    expect(await pruneInteractionClaims(t.db, new Date(now.getTime() - 3_600_000))).toBe(1);
    expect((await t.db.select().from(interactionClaims).where(eq(interactionClaims.id, '2'))).length).toBe(1);

    const gone = (id: string) =>
      vi.waitFor(async () =>
        expect(await t.db.select().from(interactionClaims).where(eq(interactionClaims.id, id))).toHaveLength(0),
      );
    const c = claimer();
    await t.db.insert(interactionClaims).values({ id: '3', by: 'gone', claimedAt: old });
    await c.claim('10'); // the first claim of a process prunes
    await gone('3');
    await t.db.insert(interactionClaims).values({ id: '4', by: 'gone', claimedAt: old });
    now = new Date(now.getTime() + 11 * 60_000); // the next prune is due ten minutes later
    await c.claim('11');
    await gone('4');
  });

  it('does not take a claim the database answered in time for a timeout when the process itself was busy', async () => {
    const c = claimer();
    await c.claim('20'); // the pool's connection is open
    const verdict = claimBy(c, '21', performance.now() + 50);
    // The event loop is blocked past the deadline (a large index build, a loaded machine) before the
    // insert was even written: when the loop runs again, the deadline timer is due first.
    const until = performance.now() + 400;
    while (performance.now() < until);
    expect(await verdict).toBe('mine');
  });
});
