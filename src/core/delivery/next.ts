/**
 * When a channel's next digest goes out, for `/digest setup` and `/digest status`. Pure; it mirrors
 * `dueDigestKey` (schedule.ts): a digest is due from its local post time until the end of that
 * local day, and the post-digests job checks every five minutes.
 */
import { localClock, type DigestSchedule } from './schedule.ts';
import { zonedTime } from '../digest/window.ts';

export interface NextDigest {
  /** The instant of the next post time (for a late one: the post time that has passed today). */
  at: Date;
  /** Its local date: the digest's key. */
  date: string;
  /** Today's post time has passed and today's digest is not out yet: it goes at the job's next run. */
  late: boolean;
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

const weekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

/** The next digest after `now`; `postedToday` says whether today's (local) digest is already in the outbox. */
export function nextDigest(s: DigestSchedule, now: Date, postedToday: boolean): NextDigest {
  const today = localClock(now, s.timezone).date;
  for (let i = 0; i <= 7; i++) {
    const date = addDays(today, i);
    if (s.cadence === 'weekly' && weekdayOf(date) !== (s.weekday ?? 1)) continue;
    if (i === 0 && postedToday) continue;
    const at = zonedTime(date, s.postTime, s.timezone);
    return { at, date, late: i === 0 && at.getTime() <= now.getTime() };
  }
  // Unreachable: eight consecutive days contain every weekday.
  const date = addDays(today, 1);
  return { at: zonedTime(date, s.postTime, s.timezone), date, late: false };
}
