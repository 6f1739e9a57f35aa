import type { LlmFailure } from '../../core/llm/port.ts';

/** Why a run stopped starting calls: an outage, or a problem every request shares (an operator must act). */
export interface RunStop {
  kind: 'unavailable' | 'config' | 'systematic';
  message: string;
}

/** Failures of the API in a row after which it is taken to be down for this run. */
export const UNAVAILABLE_AFTER = 3;
/** The same rejection on this many consecutive items makes it the run's, not theirs. */
export const SAME_REJECTION_AFTER = 2;

/**
 * Watches the results of a run's calls (a summary run, a judging pass) in the order they finish and
 * tells the caller whose fault each failure is, so one bad item never stops a run and one run-wide
 * problem never marks the whole backlog failed:
 * - an answer (good or bad) is the item's; it clears every streak;
 * - `config` stops the run at once; `unavailable` and `aborted` leave the item for a later run, and
 *   UNAVAILABLE_AFTER of them in a row stop the run;
 * - a `rejected` (400) item is held: if the next result is the same rejection, both are the run's
 *   (`systematic`: the request shape, the model, a feature) and the run stops; anything else releases
 *   the held item as its own failure. `finish()` releases what is still held when the run ends.
 * Pure bookkeeping: the caller stores `own` results against their items and leaves `run` ones pending.
 */
export class RunGuard<T> {
  stopped: RunStop | null = null;
  private unavailableInARow = 0;
  private held: { value: T; signature: string }[] = [];
  private systematic: string | null = null;

  /** Records one finished item; returns the items whose result is now known to be their own, and those that are the run's. */
  record(value: T, failure: LlmFailure | null): { own: T[]; run: T[] } {
    if (!failure) {
      this.unavailableInARow = 0;
      return { own: [...this.release(), value], run: [] };
    }
    if (failure.kind === 'rejected') {
      const signature = signatureOf(failure);
      if (signature === this.systematic) return { own: [], run: [value] };
      const released = this.held.length && this.held[0]!.signature !== signature ? this.release() : [];
      this.held.push({ value, signature });
      if (this.held.length < SAME_REJECTION_AFTER) return { own: released, run: [] };
      this.systematic = signature;
      this.stopped ??= {
        kind: 'systematic',
        message: `the API rejected ${this.held.length} requests in a row the same way: ${failure.message}`,
      };
      return { own: released, run: this.release() };
    }
    // An outage or a configuration problem says nothing about a held rejection; it stays the run's too.
    const run = [...this.release(), value];
    if (failure.kind === 'config') this.stopped ??= { kind: 'config', message: failure.message };
    if (failure.kind === 'unavailable' && ++this.unavailableInARow >= UNAVAILABLE_AFTER) {
      this.stopped ??= {
        kind: 'unavailable',
        message: `${this.unavailableInARow} calls in a row failed: ${failure.message}`,
      };
    }
    return { own: [], run };
  }

  /** The held rejections when the run ends: nothing showed they were the run's, so they are their items'. */
  finish(): T[] {
    return this.release();
  }

  private release(): T[] {
    const out = this.held.map((h) => h.value);
    this.held = [];
    return out;
  }
}

/** Two rejections are "the same" when their status and message agree once numbers and ids are masked. */
function signatureOf(f: LlmFailure): string {
  return `${f.status ?? ''} ${f.message.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase()}`;
}
