/**
 * Is a feed healthy? Pure. arXiv's RSS can serve yesterday's batch for one category with today's
 * dates (ZJU-REAL/Polaris#414), and an empty feed looks exactly like a quiet day, so health is
 * judged from ids and the calendar, never from the feed's own dates.
 */

export type Health = 'ok' | 'stale' | 'empty' | 'failing';

export interface HealthVerdict {
  health: Health;
  detail: string | null;
}

const ET = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  weekday: 'short',
});

/** arXiv's business day (US Eastern) of an instant: its date and whether the RSS feeds carry a batch that day (Mon-Fri). */
export function arxivDay(at: Date): { date: string; announces: boolean } {
  const parts = Object.fromEntries(ET.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    announces: !['Sat', 'Sun'].includes(parts.weekday ?? ''),
  };
}

/** A stable key for a batch: the same ids in any order give the same key. */
export function batchKey(ids: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const id of [...ids].sort()) {
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x2c, 0x01000193);
  }
  return `${ids.length}:${(h >>> 0).toString(16)}`;
}

export interface RssObservation {
  /** Ids in this response. */
  ids: readonly string[];
  now: Date;
  /** What the previous successful poll saw, if any. */
  previous?: { batchKey: string | null; batchDate: string | null };
}

/** Health of an arXiv RSS category after a successful fetch. */
export function rssHealth({ ids, now, previous }: RssObservation): HealthVerdict {
  const day = arxivDay(now);
  if (!day.announces) return { health: 'ok', detail: ids.length === 0 ? 'weekend: arXiv does not announce' : null };
  if (ids.length === 0)
    return {
      health: 'empty',
      detail: `no items on ${day.date}, a weekday (an arXiv holiday, or the batch is not out yet)`,
    };
  const key = batchKey(ids);
  if (previous?.batchKey === key && previous.batchDate !== null && previous.batchDate !== day.date) {
    return {
      health: 'stale',
      detail: `same ${ids.length} papers as on ${previous.batchDate}: arXiv served an old batch`,
    };
  }
  return { health: 'ok', detail: null };
}

/** After a failed fetch: one failure is worth reporting, and the count says how long it has lasted. */
export function failureHealth(consecutiveFailures: number, error: string): HealthVerdict {
  return {
    health: 'failing',
    detail: `${consecutiveFailures} failed poll${consecutiveFailures === 1 ? '' : 's'} in a row: ${error}`,
  };
}
