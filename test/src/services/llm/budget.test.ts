import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservedSpend, spendToday } from '../../../../db/queries/spend.ts';
import { Budget } from '../../../../src/services/llm/budget.ts';
import { createTestDb } from '../../../helpers/db.ts';

describe('Budget', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  let now = new Date('2026-11-28T10:00:00Z');
  const deps = () => ({ db: t.db, now: () => now, log: pino({ level: 'silent' }) });

  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t?.close());

  it('lets 30 runs reserving at once (each its own Budget, as 30 /ask are) pass the cap together never', async () => {
    // Each run read today's spend ($0) when it opened: an in-memory budget let all 30 through ($0.90 on a $0.10 cap).
    const runs = await Promise.all(Array.from({ length: 30 }, () => Budget.open(deps(), 0.1)));
    const reservations = await Promise.all(runs.map((b) => b.tryReserve(0.03)));
    expect(reservations.filter(Boolean)).toHaveLength(3);
    await Promise.all(runs.map((b, n) => b.settle(reservations[n]!, reservations[n] ? 0.03 : 0)));
    expect(await spendToday(t.db, now)).toBeCloseTo(0.09, 9);
    expect(await reservedSpend(t.db, now)).toBe(0);
    const late = await Budget.open(deps(), 0.1);
    expect(await late.tryReserve(0.03)).toBeNull();
    expect(late.exhausted).toBe(true);
    expect(await late.tryReserve(0.01)).not.toBeNull();
  });

  it('frees a dead run’s reservation once its hold lapses, not before', async () => {
    now = new Date('2026-11-29T10:00:00Z');
    const dead = await Budget.open(deps(), 0.1);
    expect(await dead.tryReserve(0.08, 60_000)).not.toBeNull();
    const other = await Budget.open(deps(), 0.1);
    expect(await other.tryReserve(0.05)).toBeNull();
    now = new Date('2026-11-29T10:01:01Z');
    expect(await other.tryReserve(0.05)).not.toBeNull();
  });

  it('reserves a batch as one, each item settling its share, and frees the rest when released', async () => {
    now = new Date('2026-11-30T10:00:00Z');
    const b = await Budget.open(deps(), 1);
    const items = await b.tryReserveEach([0.3, 0.3, 0.5, 0.2]);
    expect(items.map(Boolean)).toEqual([true, true, false, true]);
    const key = items[0]!.key;
    expect(await reservedSpend(t.db, now)).toBeCloseTo(0.8, 9);
    // Two items collected, each costing less than its estimate: spent once, never also held.
    await b.settle({ key, partUsd: 0.3 }, 0.1);
    await b.settle({ key, partUsd: 0.3 }, 0.1);
    expect(await spendToday(t.db, now)).toBeCloseTo(0.2, 9);
    expect(await reservedSpend(t.db, now)).toBeCloseTo(0.2, 9);
    await b.release(key);
    expect(await reservedSpend(t.db, now)).toBe(0);
    expect(await (await Budget.open(deps(), 1)).tryReserve(0.8)).not.toBeNull();
  });
});
