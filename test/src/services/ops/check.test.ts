import { describe, expect, it } from 'vitest';
import { createDb } from '../../../../db/client.ts';
import { checkHealth } from '../../../../src/services/ops/check.ts';

describe('checkHealth', () => {
  it('reports a database that refuses connections as unreachable, within its deadline', async () => {
    // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
    const handle = createDb('postgres://grpo:x@127.0.0.1:1/nothing', { max: 1 });
    try {
      const r = await checkHealth(
        { db: handle.db, now: () => new Date() },
        { connected: true, detail: 'ready' },
        { maxPollAgeMs: 3_600_000, maxOutboxAgeMs: 3_600_000, startedAt: new Date() },
      );
      expect(r.healthy).toBe(false);
      expect(r.checks.database.ok).toBe(false);
      expect(r.checks.database.detail).toMatch(/^does not answer: /);
      expect(r.checks.database.detail).not.toContain('grpo:x'); // no credentials in the report
    } finally {
      await handle.close();
    }
  });
});
