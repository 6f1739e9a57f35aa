import { DeliveryError } from '../../core/delivery/poster.ts';

/** A message planned for sending. Its nonce is the same on every attempt, so a platform that enforces nonces never posts it twice. */
export interface PlannedMessage {
  nonce: string;
  /** Attempts already made (a stored outbox counts them); 0 when nothing is stored. */
  attempts?: number;
  /** Why the last attempt failed, if it did. */
  lastError?: string | null;
}

/**
 * Where the outcome of each send is recorded: the digests' `deliveries`, the subscriptions'
 * `notifications_sent`, or (for a reading-group announcement, which stores no outbox) only the
 * command's answer. `sent` runs inside the attempt: a failure to record it counts as a failed send.
 */
export interface OutboxRecord<P, S> {
  /**
   * Before anything is done for a message: takes it for this run, returning its fresh state, or null
   * when another run holds it (or sent it meanwhile). Without `claim`, every message is this run's.
   */
  claim?(p: P): Promise<P | null>;
  /** Right before the send (attempt counted): a message found `sending` after a crash is re-sent with the same nonce. */
  sending?(p: P): Promise<void>;
  sent(p: P, s: S): Promise<void>;
  /**
   * For a message tried before (a run died mid-send, or the send failed in a way that may still
   * have posted it): where it was sent, or null. Asked before every re-send, since a nonce protects
   * only for the platform's few minutes; without it, a re-send relies on the nonce alone.
   */
  findSent?(p: P): Promise<S | null>;
  /** A transient failure: the message stays due and a later run retries it. Without `retry`, every failure is final. */
  retry?(p: P, reason: string, err: unknown): Promise<void>;
  /** Final: retrying cannot help (`DeliveryError.permanent`) or the attempts ran out; `err` is absent when they ran out before this send. */
  failed(p: P, reason: string, err?: unknown): Promise<void>;
}

type Outcome = Exclude<keyof SendTally, 'busy'>;

export interface SendPolicy {
  /** After a final failure: `stop` (a digest's later parts wait, so it never arrives with a gap) or go on with the `next`. */
  afterFailed: 'stop' | 'next';
  /** At most this many attempts per message; without it, a transient failure is retried forever. */
  maxAttempts?: number;
}

export interface SendTally {
  sent: number;
  retrying: number;
  failed: number;
  /** Held by another run (`claim` said null): not sent by this one. */
  busy: number;
}

/**
 * The one way the bot sends what it planned: digests, subscription notices and reading-group
 * announcements. Messages go one after another, in order, each with its nonce. A transient failure
 * stops the run (the platform is having trouble: the rest waits for the next run, still due); a
 * final one is recorded and the policy says whether the rest goes on.
 */
export async function sendPlanned<P extends PlannedMessage, S>(
  planned: readonly P[],
  send: (p: P) => Promise<S>,
  record: OutboxRecord<P, S>,
  policy: SendPolicy,
): Promise<SendTally> {
  const tally: SendTally = { sent: 0, retrying: 0, failed: 0, busy: 0 };
  for (const listed of planned) {
    const p = record.claim ? await record.claim(listed) : listed;
    if (p === null) {
      // Another run is sending it: with `stop`, the later messages wait for it too (never out of order).
      tally.busy++;
      if (policy.afterFailed === 'stop') break;
      continue;
    }
    const outcome = await sendOne(p, send, record, policy);
    tally[outcome]++;
    if (outcome === 'retrying' || (outcome === 'failed' && policy.afterFailed === 'stop')) break;
  }
  return tally;
}

async function sendOne<P extends PlannedMessage, S>(
  p: P,
  send: (p: P) => Promise<S>,
  record: OutboxRecord<P, S>,
  { maxAttempts }: SendPolicy,
): Promise<Outcome> {
  const attempt = (p.attempts ?? 0) + 1;
  try {
    // Looked for first, even when the attempts ran out: a message that is out was sent, not failed.
    const found = attempt > 1 && record.findSent ? await record.findSent(p) : null;
    if (found !== null) {
      await record.sent(p, found);
      return 'sent';
    }
  } catch (err) {
    return failedAttempt(p, err, record, maxAttempts, attempt);
  }
  if (maxAttempts !== undefined && attempt > maxAttempts) {
    // A run died mid-send this many times: give up rather than retry forever.
    await record.failed(p, p.lastError ?? `not confirmed after ${maxAttempts} attempts`);
    return 'failed';
  }
  await record.sending?.(p);
  try {
    await record.sent(p, await send(p));
    return 'sent';
  } catch (err) {
    return failedAttempt(p, err, record, maxAttempts, attempt);
  }
}

/** A send (or the look for one) that failed: retried while it may help, else recorded as final. */
async function failedAttempt<P extends PlannedMessage, S>(
  p: P,
  err: unknown,
  record: OutboxRecord<P, S>,
  maxAttempts: number | undefined,
  attempt: number,
): Promise<Outcome> {
  const reason = err instanceof Error ? err.message : String(err);
  const permanent = err instanceof DeliveryError && err.permanent;
  const lastTry = maxAttempts !== undefined && attempt >= maxAttempts;
  if (record.retry && !permanent && !lastTry) {
    await record.retry(p, reason, err);
    return 'retrying';
  }
  await record.failed(
    p,
    record.retry && !permanent ? `${reason} (gave up after ${maxAttempts} attempts)` : reason,
    err,
  );
  return 'failed';
}
