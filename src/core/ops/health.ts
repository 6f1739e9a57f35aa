/**
 * The operator's health verdict (`/healthz`), from facts gathered elsewhere: pure, so every rule is
 * tested without a server. Healthy means the bot can answer and deliver: the gateway is connected,
 * the database answers, the feeds were polled recently, and nothing waits long in the outboxes.
 */

/** The Discord gateway as the adapter sees it: every shard ready, or which one is not. */
export interface GatewayState {
  connected: boolean;
  detail: string;
}

export interface HealthFacts {
  gateway: GatewayState;
  /** Null when the database answered; otherwise what went wrong. */
  databaseError: string | null;
  /** The most recent successful poll of any feed; null before the first. Undefined when the database did not answer. */
  lastPollAt?: Date | null;
  /** What waits in the outboxes. Undefined when the database did not answer. */
  outbox?: { digests: number; notifications: number; oldestAt: Date | null };
  /** When this process started: a fresh install has not polled yet, and that is fine for a while. */
  startedAt: Date;
}

export interface HealthLimits {
  /** A successful poll older than this is unhealthy (the default schedule polls twice a day). */
  maxPollAgeMs: number;
  /** A message planned longer ago than this and still not sent means delivery is stuck. */
  maxOutboxAgeMs: number;
}

export interface Check {
  ok: boolean;
  detail: string;
}

export interface HealthReport {
  healthy: boolean;
  checks: {
    gateway: Check;
    database: Check;
    poll: Check & { ageSeconds: number | null };
    outbox: Check & { digests: number | null; notifications: number | null };
  };
}

const hours = (ms: number) => `${Math.round((ms / 3_600_000) * 10) / 10} h`;

export function healthReport(f: HealthFacts, limits: HealthLimits, now: Date): HealthReport {
  const gateway: Check = { ok: f.gateway.connected, detail: f.gateway.detail };
  const database: Check =
    f.databaseError === null ? { ok: true, detail: 'answers' } : { ok: false, detail: f.databaseError };
  const checks = { gateway, database, poll: pollCheck(f, limits, now), outbox: outboxCheck(f, limits, now) };
  return { healthy: Object.values(checks).every((c) => c.ok), checks };
}

function pollCheck(f: HealthFacts, limits: HealthLimits, now: Date): HealthReport['checks']['poll'] {
  if (f.lastPollAt === undefined)
    return { ok: false, detail: 'unknown: the database did not answer', ageSeconds: null };
  if (f.lastPollAt === null) {
    const up = now.getTime() - f.startedAt.getTime();
    return up <= limits.maxPollAgeMs
      ? { ok: true, detail: 'no successful poll yet (started recently)', ageSeconds: null }
      : { ok: false, detail: `no successful poll in the ${hours(up)} since start`, ageSeconds: null };
  }
  const age = now.getTime() - f.lastPollAt.getTime();
  const ageSeconds = Math.max(0, Math.round(age / 1000));
  return age <= limits.maxPollAgeMs
    ? { ok: true, detail: `last successful poll ${hours(age)} ago`, ageSeconds }
    : { ok: false, detail: `last successful poll ${hours(age)} ago (limit ${hours(limits.maxPollAgeMs)})`, ageSeconds };
}

function outboxCheck(f: HealthFacts, limits: HealthLimits, now: Date): HealthReport['checks']['outbox'] {
  const o = f.outbox;
  if (!o) return { ok: false, detail: 'unknown: the database did not answer', digests: null, notifications: null };
  const counts = { digests: o.digests, notifications: o.notifications };
  const waiting = `${o.digests} digest messages and ${o.notifications} notifications waiting`;
  if (!o.oldestAt) return { ok: true, detail: 'nothing waiting', ...counts };
  const age = now.getTime() - o.oldestAt.getTime();
  return age <= limits.maxOutboxAgeMs
    ? { ok: true, detail: `${waiting}, the oldest for ${hours(age)}`, ...counts }
    : {
        ok: false,
        detail: `${waiting}, the oldest for ${hours(age)} (limit ${hours(limits.maxOutboxAgeMs)}): delivery is stuck`,
        ...counts,
      };
}
