import type { Db } from '../../../db/client.ts';
import { reserveSpend, settleSpend, spendToday } from '../../../db/queries/spend.ts';

/** How long a direct call's reservation is held at most: longer than any call's timeout, so only a dead process's lapses. */
export const CALL_HOLD_MS = 15 * 60_000;
/** A batch's: the API ends every batch within 24 hours. */
export const BATCH_HOLD_MS = 25 * 3_600_000;

/** A reservation in the shared ledger; `partUsd`: this call's share of a larger one (a batch's item). */
export interface Reservation {
  key: string | null;
  partUsd?: number;
}

/**
 * The daily spend cap, shared by every run, request and process through Postgres (db/queries/spend.ts).
 * Every call reserves its conservative estimate there before it starts, atomically against today's
 * spend and every other live reservation, and settles to its real cost when it ends: the cost goes
 * into the day's ledger as the reservation goes, so concurrent calls can never jointly pass the cap.
 */
export class Budget {
  /** Set once a reservation was refused: the run reports it. */
  exhausted = false;
  private settled = 0;

  private constructor(
    private readonly deps: { db: Db; now: () => Date },
    readonly capUsd: number,
    private readonly spentAtStart: number,
  ) {}

  /** A budget for one run (a summary run, one /ask answer, a judging pass). */
  static async open(deps: { db: Db; now: () => Date }, capUsd: number): Promise<Budget> {
    return new Budget(deps, capUsd, await spendToday(deps.db, deps.now()));
  }

  /** Reserves `estimateUsd` if today's spend, everything in flight and it stay within the cap; null when refused. */
  async tryReserve(estimateUsd: number, holdMs = CALL_HOLD_MS): Promise<Reservation | null> {
    const [r] = await this.tryReserveEach([estimateUsd], holdMs);
    return r ?? null;
  }

  /**
   * Reserves as many of the estimates as fit, in order, as one reservation (a batch's items); returns
   * the reservation and which were taken.
   */
  async tryReserveEach(estimatesUsd: readonly number[], holdMs = CALL_HOLD_MS): Promise<(Reservation | null)[]> {
    const { key, taken } = await reserveSpend(this.deps.db, {
      estimatesUsd,
      capUsd: this.capUsd,
      now: this.deps.now(),
      holdMs,
    });
    if (taken.some((t) => !t)) this.exhausted = true;
    return taken.map((t) => (t ? { key } : null));
  }

  /** Ends a reservation and records what the call really cost (0 for a call that failed before billing). */
  async settle(r: Reservation | null, actualUsd: number): Promise<void> {
    await settleSpend(this.deps.db, r ?? { key: null }, actualUsd, this.deps.now());
    this.settled += actualUsd;
  }

  /** Ends what is left of a reservation (a batch collected or abandoned, or never submitted). */
  async release(key: string | null | undefined): Promise<void> {
    if (key) await settleSpend(this.deps.db, { key }, 0, this.deps.now());
  }

  /** Today's spend as this run saw it: at its start, plus what it settled. */
  get spentUsd(): number {
    return this.spentAtStart + this.settled;
  }
}
