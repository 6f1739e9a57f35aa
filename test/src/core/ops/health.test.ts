import { describe, expect, it } from 'vitest';
import { healthReport, type HealthFacts } from '../../../../src/core/ops/health.ts';

const now = new Date('2026-11-21T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const H = 3_600_000;
const limits = { maxPollAgeMs: 26 * H, maxOutboxAgeMs: 2 * H };
const healthy: HealthFacts = {
  gateway: { connected: true, detail: '1 shard ready' },
  databaseError: null,
  lastPollAt: ago(5 * H),
  outbox: { digests: 0, notifications: 0, oldestAt: null },
  startedAt: ago(48 * H),
};

describe('healthReport', () => {
  it('is healthy when the gateway is ready, the database answers, a feed was polled lately and nothing waits long', () => {
    const r = healthReport(healthy, limits, now);
    expect(r.healthy).toBe(true);
    expect(r.checks.poll).toMatchObject({ ok: true, ageSeconds: 5 * 3600 });
    expect(r.checks.outbox).toMatchObject({ ok: true, detail: 'nothing waiting' });
  });

  it('is unhealthy when the gateway is not connected, and says which shard', () => {
    const r = healthReport({ ...healthy, gateway: { connected: false, detail: 'shard 1 Reconnecting' } }, limits, now);
    expect(r.healthy).toBe(false);
    expect(r.checks.gateway).toEqual({ ok: false, detail: 'shard 1 Reconnecting' });
  });

  it('is unhealthy when the database does not answer, and does not guess the poll or the outbox', () => {
    const r = healthReport(
      { ...healthy, databaseError: 'does not answer: connect ECONNREFUSED', lastPollAt: undefined, outbox: undefined },
      limits,
      now,
    );
    expect(r.healthy).toBe(false);
    expect(r.checks.database.ok).toBe(false);
    expect(r.checks.poll).toMatchObject({ ok: false, ageSeconds: null });
    expect(r.checks.outbox).toMatchObject({ ok: false, digests: null });
  });

  it('is unhealthy when the last successful poll is older than the limit', () => {
    const r = healthReport({ ...healthy, lastPollAt: ago(30 * H) }, limits, now);
    expect(r.healthy).toBe(false);
    expect(r.checks.poll.detail).toBe('last successful poll 30 h ago (limit 26 h)');
  });

  it('gives a fresh install time for its first poll, then expects one', () => {
    expect(healthReport({ ...healthy, lastPollAt: null, startedAt: ago(H) }, limits, now).healthy).toBe(true);
    const late = healthReport({ ...healthy, lastPollAt: null, startedAt: ago(27 * H) }, limits, now);
    expect(late.healthy).toBe(false);
    expect(late.checks.poll.detail).toBe('no successful poll in the 27 h since start');
  });

  it('counts a waiting message as healthy until it waited longer than the limit', () => {
    const waiting = (age: number) =>
      healthReport({ ...healthy, outbox: { digests: 3, notifications: 1, oldestAt: ago(age) } }, limits, now);
    expect(waiting(H).checks.outbox).toMatchObject({ ok: true, digests: 3, notifications: 1 });
    const stuck = waiting(3 * H);
    expect(stuck.healthy).toBe(false);
    expect(stuck.checks.outbox.detail).toMatch(
      /3 digest messages and 1 notifications waiting, the oldest for 3 h \(limit 2 h\): delivery is stuck/,
    );
  });
});
