/**
 * The bot's Prometheus metrics (prom-client). Two kinds:
 * - what the database holds, read when Prometheus scrapes (one snapshot per scrape, shared by every
 *   series): papers, polls per feed, job counts, outboxes, LLM tokens and dollars. Stored totals are
 *   the same on every replica and survive restarts; they are exposed as counters (`_total`).
 * - what only this process sees: how fast interactions get their first response, and the process
 *   itself (memory, CPU, event loop lag: prom-client's default metrics).
 * A database that does not answer does not fail the scrape: `grpo_digest_database_up` is 0 and the
 * stored series are left out.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { listFeedStates } from '../../../db/queries/feed-state.ts';
import { opsCounts, outboxBacklog } from '../../../db/queries/ops.ts';
import { spendToday, spendTotal } from '../../../db/queries/spend.ts';
import type { AppDeps } from '../../core/deps.ts';
import type { GatewayState } from '../../core/ops/health.ts';

export interface Metrics {
  registry: Registry;
  /** One interaction's time from its arrival (INTERACTION_CREATE) to its first response (reply, defer or autocomplete choices). */
  observeInteraction(labels: InteractionLabels, seconds: number): void;
  /** An interaction with no first response within Discord's 3 s: the user saw "The application did not respond". */
  interactionUnanswered(labels: InteractionLabels): void;
}

export interface InteractionLabels {
  /** `command`, `autocomplete`, `component` or `other`. */
  type: string;
  /** The slash command, or a button's command (its custom id prefix). */
  command: string;
}

/** Seconds; Discord's deadline for the first response is 3 s. */
const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];

type Snapshot = Awaited<ReturnType<typeof readSnapshot>>;

async function readSnapshot(deps: Pick<AppDeps, 'db' | 'now'>) {
  const [counts, feeds, backlog, spentToday, spent] = await Promise.all([
    opsCounts(deps.db),
    listFeedStates(deps.db),
    outboxBacklog(deps.db),
    spendToday(deps.db, deps.now()),
    spendTotal(deps.db),
  ]);
  return { counts, feeds, backlog, spentToday, spent, now: deps.now() };
}

export function createMetrics(deps: Pick<AppDeps, 'db' | 'now' | 'log'>, gateway: () => GatewayState): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  // One read of the database per scrape, shared by every series below (they are collected concurrently).
  let pending: Promise<Snapshot | null> | undefined;
  const snapshot = () =>
    (pending ??= readSnapshot(deps)
      .catch((err: unknown) => {
        deps.log.warn({ err }, 'metrics: the database did not answer');
        return null;
      })
      .finally(() => setTimeout(() => (pending = undefined), 0)));

  /** A series read from the snapshot: cleared, then set, in one synchronous step after the read. */
  const stored =
    <M extends Counter | Gauge>(metric: M, fill: (m: M, s: Snapshot) => void) =>
    async () => {
      const s = await snapshot();
      metric.reset();
      if (s) fill(metric, s);
    };
  const counter = (name: string, help: string, labelNames: string[], fill: (m: Counter, s: Snapshot) => void) => {
    const m: Counter = new Counter({ name, help, labelNames, registers: [registry], collect: () => stored(m, fill)() });
    return m;
  };
  const gauge = (name: string, help: string, labelNames: string[], fill: (m: Gauge, s: Snapshot) => void) => {
    const m: Gauge = new Gauge({ name, help, labelNames, registers: [registry], collect: () => stored(m, fill)() });
    return m;
  };

  new Gauge({
    name: 'grpo_digest_database_up',
    help: "1 when the database answered this scrape's queries, else 0",
    registers: [registry],
    async collect() {
      this.set((await snapshot()) ? 1 : 0);
    },
  });

  new Gauge({
    name: 'grpo_digest_gateway_connected',
    help: '1 when every shard of the Discord gateway is ready',
    registers: [registry],
    collect() {
      this.set(gateway().connected ? 1 : 0);
    },
  });

  gauge('grpo_digest_papers', 'Papers stored', [], (m, s) => m.set(s.counts.papers.total));
  gauge(
    'grpo_digest_papers_in_family',
    'Stored papers in the GRPO family (moderator mark, else judge, else filter)',
    [],
    (m, s) => m.set(s.counts.papers.family),
  );

  counter('grpo_digest_job_runs_total', 'Recorded job runs by job and status', ['job', 'status'], (m, s) => {
    for (const r of s.counts.jobRuns) m.inc({ job: r.job, status: r.status }, r.n);
  });
  counter(
    'grpo_digest_job_stat_total',
    'Each count a job reports (messages, failed, new ...), summed over its recorded runs',
    ['job', 'stat'],
    (m, s) => {
      for (const r of s.counts.jobStats) m.inc({ job: r.job, stat: r.stat }, Math.max(0, r.total));
    },
  );
  counter(
    'grpo_digest_feed_polls_total',
    'Polls of each feed by outcome (ok, not-modified, failed)',
    ['feed', 'status'],
    (m, s) => {
      for (const r of s.counts.feedPolls) m.inc({ feed: r.feed, status: r.status }, r.polls);
    },
  );
  counter(
    'grpo_digest_feed_items_total',
    'Items each feed brought: fetched, new papers, new GRPO-family papers',
    ['feed', 'kind'],
    (m, s) => {
      for (const r of s.counts.feedPolls)
        for (const kind of ['fetched', 'new', 'family'] as const) m.inc({ feed: r.feed, kind }, Math.max(0, r[kind]));
    },
  );
  gauge(
    'grpo_digest_feed_last_success_timestamp_seconds',
    'When each feed was last polled successfully (Unix time)',
    ['feed'],
    (m, s) => {
      for (const f of s.feeds) if (f.lastSuccessAt) m.set({ feed: f.feed }, f.lastSuccessAt.getTime() / 1000);
    },
  );
  gauge(
    'grpo_digest_feed_consecutive_failures',
    'Failed polls of each feed since its last success',
    ['feed'],
    (m, s) => {
      for (const f of s.feeds) m.set({ feed: f.feed }, f.consecutiveFailures);
    },
  );
  gauge(
    'grpo_digest_feed_health',
    "1 for each feed's current health (ok, stale, empty, failing)",
    ['feed', 'health'],
    (m, s) => {
      for (const f of s.feeds) if (f.health) m.set({ feed: f.feed, health: f.health }, 1);
    },
  );

  gauge(
    'grpo_digest_digest_messages',
    'Digest outbox rows by status (sent, pending, sending, empty for a quiet day)',
    ['status'],
    (m, s) => {
      for (const r of s.counts.digestMessages) m.set({ status: r.status }, r.n);
    },
  );
  gauge(
    'grpo_digest_notifications',
    'Subscriber notification outbox rows by status (sent, pending, sending, failed)',
    ['status'],
    (m, s) => {
      for (const r of s.counts.notifications) m.set({ status: r.status }, r.n);
    },
  );
  gauge(
    'grpo_digest_outbox_waiting',
    'Messages planned and not yet sent, in channels the bot can post to',
    ['outbox'],
    (m, s) => {
      m.set({ outbox: 'digests' }, s.backlog.digests);
      m.set({ outbox: 'notifications' }, s.backlog.notifications);
    },
  );
  gauge(
    'grpo_digest_outbox_oldest_age_seconds',
    'How long the oldest waiting message has waited (0 when none)',
    [],
    (m, s) => {
      m.set(s.backlog.oldestAt ? Math.max(0, (s.now.getTime() - s.backlog.oldestAt.getTime()) / 1000) : 0);
    },
  );

  counter(
    'grpo_digest_llm_tokens_total',
    'LLM tokens of stored results, by purpose (summary, judge) and kind',
    ['purpose', 'kind'],
    (m, s) => {
      for (const r of s.counts.llm) {
        for (const kind of ['input', 'output', 'cacheRead', 'cacheWrite'] as const)
          m.inc({ purpose: r.purpose, kind: kind.replace(/[A-Z]/, (c) => `_${c.toLowerCase()}`) }, r[kind]);
      }
    },
  );
  counter(
    'grpo_digest_llm_cost_usd_total',
    'Dollars of stored LLM results, by purpose (summary, judge)',
    ['purpose'],
    (m, s) => {
      for (const r of s.counts.llm) m.inc({ purpose: r.purpose }, r.costUsd);
    },
  );
  counter(
    'grpo_digest_llm_spend_usd_total',
    'Dollars spent on LLM calls, every purpose (/ask too), from the daily ledger',
    [],
    (m, s) => m.inc(s.spent),
  );
  gauge(
    'grpo_digest_llm_spend_today_usd',
    'Dollars spent on LLM calls today (UTC), what LLM_DAILY_BUDGET_USD caps',
    [],
    (m, s) => m.set(s.spentToday),
  );

  const latency = new Histogram({
    name: 'grpo_digest_interaction_response_seconds',
    help: "From an interaction's arrival to its first response (reply, defer, or autocomplete choices)",
    labelNames: ['type', 'command'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const unanswered = new Counter({
    name: 'grpo_digest_interactions_unanswered_total',
    help: "Interactions with no first response within Discord's 3 s deadline",
    labelNames: ['type', 'command'],
    registers: [registry],
  });

  return {
    registry,
    observeInteraction: (labels, seconds) => latency.observe({ ...labels }, seconds),
    interactionUnanswered: (labels) => unanswered.inc({ ...labels }),
  };
}
