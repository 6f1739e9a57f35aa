/**
 * The daily spend cap within one run (a summary run, one /ask answer, a judging pass). Every call
 * reserves its conservative estimate before it starts and settles to its real cost when it ends, so
 * concurrent calls can never jointly pass the cap on estimates alone. Today's spend comes from the
 * one ledger (db/queries/spend.ts) when the run starts.
 */
export class Budget {
  private committed: number;
  private reserved = 0;
  /** Set once a reservation was refused: the run reports it. */
  exhausted = false;

  constructor(
    readonly capUsd: number,
    spentTodayUsd: number,
  ) {
    this.committed = spentTodayUsd;
  }

  /** Reserves `estimateUsd` if today's spend, what is in flight and it stay within the cap. */
  tryReserve(estimateUsd: number): boolean {
    if (this.committed + this.reserved + estimateUsd > this.capUsd) {
      this.exhausted = true;
      return false;
    }
    this.reserved += estimateUsd;
    return true;
  }

  /** Replaces a reservation with what the call really cost (0 for a call that failed before billing). */
  settle(estimateUsd: number, actualUsd: number): void {
    this.reserved = Math.max(0, this.reserved - estimateUsd);
    this.committed += actualUsd;
  }

  get spentUsd(): number {
    return this.committed;
  }
}
