/**
 * Interactions at a steady rate through the fake Discord's gateway, and what the bot answered:
 * per interaction, the time from INTERACTION_CREATE to the first response (the callback request:
 * reply, defer, update or autocomplete choices) and to the last request that answered it (the edit
 * of a deferred reply). Both clocks are the fake's, in this process.
 */
import { performance } from 'node:perf_hooks';
import type { FakeDiscord, SentInteraction } from '../test/fakes/discord.ts';
import { round } from './stats.ts';

/** Discord shows "The application did not respond" after this. */
export const DEADLINE_MS = 3000;

export interface Sent extends SentInteraction {
  kind: string;
}

export interface Latency {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface KindStats {
  sent: number;
  /** First response: interaction arrival to the callback. */
  first: Latency;
  /** The whole answer: to the last request for this interaction (a deferred one's edit). */
  complete: Latency;
  /** No first response within 3 s (or none at all). */
  missed: number;
  deferred: number;
}

export interface RunStats extends KindStats {
  ratePerSecond: number;
  seconds: number;
  /** What was actually sent per second (timer drift shows here). */
  achievedPerSecond: number;
  loadAverage: [number, number];
  byKind: Record<string, KindStats>;
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : NaN;

function latency(xs: number[]): Latency {
  const s = [...xs].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: round(pct(s, 0.5)),
    p95: round(pct(s, 0.95)),
    p99: round(pct(s, 0.99)),
    max: round(s.at(-1) ?? NaN),
  };
}

/** Sends `next()` interactions at `perSecond` for `seconds`, on a schedule that does not drift. */
export async function sendAtRate(
  perSecond: number,
  seconds: number,
  next: () => Sent,
): Promise<{ sent: Sent[]; elapsedMs: number }> {
  const sent: Sent[] = [];
  const total = Math.round(perSecond * seconds);
  const t0 = performance.now();
  for (let k = 0; k < total; k++) {
    const due = t0 + (k * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    sent.push(next());
  }
  return { sent, elapsedMs: performance.now() - t0 };
}

/** Waits until every interaction has had its first response, or `graceMs` passed. */
export async function settle(fake: FakeDiscord, sent: Sent[], graceMs = 10_000): Promise<void> {
  const deadline = performance.now() + graceMs;
  for (;;) {
    const answered = firstResponses(fake);
    if (sent.every((i) => answered.has(i.token)) || performance.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1500)); // the edits of replies deferred last
}

const TOKEN = /^\/(?:interactions\/\d+|webhooks\/\d+)\/([^/]+)/;

function firstResponses(fake: FakeDiscord): Set<string> {
  const tokens = new Set<string>();
  for (const r of fake.requests) {
    if (r.path.endsWith('/callback')) tokens.add(TOKEN.exec(r.path)?.[1] ?? '');
  }
  return tokens;
}

export function runStats(
  fake: FakeDiscord,
  sent: Sent[],
  o: { perSecond: number; seconds: number; elapsedMs: number; loadAverage: [number, number] },
): RunStats {
  const byToken = new Map<string, { first?: number; last: number; deferred: boolean }>();
  for (const r of fake.requests) {
    const token = TOKEN.exec(r.path)?.[1];
    if (!token) continue;
    const e = byToken.get(token) ?? { last: 0, deferred: false };
    if (r.path.endsWith('/callback') && e.first === undefined) {
      e.first = r.at;
      e.deferred = r.body?.type === 5 || r.body?.type === 6;
    }
    e.last = Math.max(e.last, r.at);
    byToken.set(token, e);
  }
  const stats = (list: Sent[]): KindStats => {
    const first: number[] = [];
    const complete: number[] = [];
    let missed = 0;
    let deferred = 0;
    for (const i of list) {
      const e = byToken.get(i.token);
      if (e?.first === undefined || e.first - i.sentAt > DEADLINE_MS) missed++;
      if (e?.first === undefined) continue;
      first.push(e.first - i.sentAt);
      complete.push(e.last - i.sentAt);
      if (e.deferred) deferred++;
    }
    return { sent: list.length, first: latency(first), complete: latency(complete), missed, deferred };
  };
  const kinds = [...new Set(sent.map((s) => s.kind))];
  return {
    ...stats(sent),
    ratePerSecond: o.perSecond,
    seconds: o.seconds,
    achievedPerSecond: round(sent.length / (o.elapsedMs / 1000)),
    loadAverage: o.loadAverage,
    byKind: Object.fromEntries(kinds.map((k) => [k, stats(sent.filter((s) => s.kind === k))])),
  };
}
