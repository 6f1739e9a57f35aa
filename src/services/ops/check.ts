import { lastFeedSuccess, outboxBacklog, ping } from '../../../db/queries/ops.ts';
import type { AppDeps } from '../../core/deps.ts';
import {
  healthReport,
  type GatewayState,
  type HealthFacts,
  type HealthLimits,
  type HealthReport,
} from '../../core/ops/health.ts';

/** A database that neither answers nor refuses within this long counts as unreachable. */
const DATABASE_TIMEOUT_MS = 2000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Gathers the facts of `/healthz` (the database's within a short deadline) and gives the verdict. */
export async function checkHealth(
  deps: Pick<AppDeps, 'db' | 'now'>,
  gateway: GatewayState,
  opts: HealthLimits & { startedAt: Date },
): Promise<HealthReport> {
  const facts: HealthFacts = { gateway, databaseError: null, startedAt: opts.startedAt };
  try {
    await within(ping(deps.db), DATABASE_TIMEOUT_MS);
    const [lastPollAt, outbox] = await within(
      Promise.all([lastFeedSuccess(deps.db), outboxBacklog(deps.db)]),
      DATABASE_TIMEOUT_MS,
    );
    Object.assign(facts, { lastPollAt, outbox });
  } catch (err) {
    facts.databaseError = `does not answer: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300);
  }
  return healthReport(facts, opts, deps.now());
}
