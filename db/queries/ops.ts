/**
 * What an operator's health check and metrics read from the database: a few aggregate queries, each
 * cheap enough to run on every scrape (counts over indexed columns, sums over the LLM-written rows).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  channels,
  deliveries,
  familyJudgements,
  feedState,
  jobRuns,
  notificationsSent,
  papers,
  summaries,
} from '../schema.ts';

/** Fails (throws) when the database does not answer. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** The most recent successful poll of any feed, or null before the first. */
export async function lastFeedSuccess(db: Db): Promise<Date | null> {
  const [row] = await db.select({ at: sql<string | null>`max(${feedState.lastSuccessAt})` }).from(feedState);
  return row?.at ? new Date(row.at) : null;
}

export interface OutboxBacklog {
  /** Digest messages planned and not yet sent (`pending`, or `sending` when a send was cut short), in channels the bot can post to. */
  digests: number;
  /** Subscriber notifications planned and not yet sent. */
  notifications: number;
  /** When the oldest of them was planned, or null when there is none. */
  oldestAt: Date | null;
}

/** What is waiting in the two outboxes: a growing or old backlog means deliveries are stuck. */
export async function outboxBacklog(db: Db): Promise<OutboxBacklog> {
  // A channel the bot can no longer post to keeps its parts until it is set up again: not a backlog.
  const rows = await db.execute<{ digests: number; notifications: number; oldest: string | null }>(sql`
    with due as (
      select d.created_at from ${deliveries} d join ${channels} c on c.channel_id = d.channel_id
      where d.status in ('pending', 'sending') and c.delivery_error is null)
    select
      (select count(*)::int from due) as digests,
      (select count(*)::int from ${notificationsSent} where ${notificationsSent.status} in ('pending', 'sending')) as notifications,
      least(
        (select min(created_at) from due),
        (select min(${notificationsSent.createdAt}) from ${notificationsSent} where ${notificationsSent.status} in ('pending', 'sending'))
      ) as oldest`);
  const r = rows[0];
  return {
    digests: Number(r?.digests ?? 0),
    notifications: Number(r?.notifications ?? 0),
    oldestAt: r?.oldest ? new Date(r.oldest) : null,
  };
}

export interface OpsCounts {
  papers: { total: number; family: number };
  /** Job runs recorded, by job and status (`ok`, `failed`, `skipped`, `running`). */
  jobRuns: { job: string; status: string; n: number }[];
  /** Each numeric count a job reports (`job_runs.stats`), summed over its recorded runs: messages, failed, new ... */
  jobStats: { job: string; stat: string; total: number }[];
  /** Every feed's polls by outcome (`ok`, `not-modified`, `failed`) and the items they brought, over recorded poll runs. */
  feedPolls: { feed: string; status: string; polls: number; fetched: number; new: number; family: number }[];
  /** Digest outbox rows by status (`sent`, `pending`, `sending`, `failed`, `empty`). */
  digestMessages: { status: string; n: number }[];
  /** Notification outbox rows by status. */
  notifications: { status: string; n: number }[];
  /** Tokens and dollars of every stored LLM result, by purpose (`summary`, `judge`). */
  llm: { purpose: string; input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number }[];
}

/** The totals the metrics endpoint reports, as stored (the same on every replica). */
export async function opsCounts(db: Db): Promise<OpsCounts> {
  const [paperRow, jobs, jobStats, feedPolls, digestRows, notificationRows, llm] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)::int`,
        family: sql<number>`count(*) filter (where ${papers.grpoFamily})::int`,
      })
      .from(papers),
    db
      .select({ job: jobRuns.job, status: jobRuns.status, n: sql<number>`count(*)::int` })
      .from(jobRuns)
      .groupBy(jobRuns.job, jobRuns.status),
    db.execute<{ job: string; stat: string; total: string }>(sql`
      select r.job, s.key as stat, sum((s.value)::text::numeric) as total
      from ${jobRuns} r, jsonb_each(r.stats) s
      where jsonb_typeof(r.stats) = 'object' and jsonb_typeof(s.value) = 'number'
      group by r.job, s.key`),
    db.execute<{ feed: string; status: string; polls: number; fetched: string; new: string; family: string }>(sql`
      select f.key as feed, f.value->>'status' as status, count(*)::int as polls,
        sum((f.value->>'fetched')::numeric) as fetched, sum((f.value->>'new')::numeric) as new, sum((f.value->>'family')::numeric) as family
      from ${jobRuns} r, jsonb_each(r.stats->'feeds') f
      where jsonb_typeof(r.stats->'feeds') = 'object' and jsonb_typeof(f.value) = 'object'
      group by f.key, f.value->>'status'`),
    db
      .select({ status: deliveries.status, n: sql<number>`count(*)::int` })
      .from(deliveries)
      .groupBy(deliveries.status),
    db
      .select({ status: notificationsSent.status, n: sql<number>`count(*)::int` })
      .from(notificationsSent)
      .groupBy(notificationsSent.status),
    db.execute<{
      purpose: string;
      input: string;
      output: string;
      cache_read: string;
      cache_write: string;
      cost: string;
    }>(sql`
      select 'summary' as purpose, coalesce(sum(input_tokens), 0) as input, coalesce(sum(output_tokens), 0) as output,
        coalesce(sum(cache_read_tokens), 0) as cache_read, coalesce(sum(cache_write_tokens), 0) as cache_write, coalesce(sum(cost_usd), 0) as cost
      from ${summaries}
      union all
      select 'judge', coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0),
        coalesce(sum(cache_read_tokens), 0), coalesce(sum(cache_write_tokens), 0), coalesce(sum(cost_usd), 0)
      from ${familyJudgements}`),
  ]);
  return {
    papers: { total: paperRow[0]?.total ?? 0, family: paperRow[0]?.family ?? 0 },
    jobRuns: jobs,
    jobStats: jobStats.map((r) => ({ job: r.job, stat: r.stat, total: Number(r.total) })),
    feedPolls: feedPolls.map((r) => ({
      feed: r.feed,
      status: r.status ?? 'unknown',
      polls: Number(r.polls),
      fetched: Number(r.fetched ?? 0),
      new: Number(r.new ?? 0),
      family: Number(r.family ?? 0),
    })),
    digestMessages: digestRows,
    notifications: notificationRows,
    llm: llm.map((r) => ({
      purpose: r.purpose,
      input: Number(r.input),
      output: Number(r.output),
      cacheRead: Number(r.cache_read),
      cacheWrite: Number(r.cache_write),
      costUsd: Number(r.cost),
    })),
  };
}
