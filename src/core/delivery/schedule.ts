/**
 * When is a channel's digest due? Pure. Each channel posts at its own local time in its own IANA
 * time zone, daily or weekly; a digest is named by its local date, so "the digest of 2026-11-21 for
 * this channel" exists at most once however often the job runs and however many replicas run it.
 */

export interface DigestSchedule {
  postTime: string;
  timezone: string;
  cadence: string;
  /** 0 = Sunday, for weekly digests. */
  weekday: number | null;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date, time and weekday of an instant in a time zone. */
export function localClock(at: Date, timezone: string): { date: string; time: string; weekday: number } {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    });
    formatters.set(timezone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    time: `${p.hour}:${p.minute}`,
    weekday: WEEKDAYS.indexOf(p.weekday ?? ''),
  };
}

/** Is this an IANA zone the runtime knows? (Checked when a channel is configured.) */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * The key of the digest due now, or null when none is: from the local post time on the local
 * day (and weekday, for weekly digests) until the end of that day. A bot that was down at 09:00
 * still posts at 11:00; one down all day skips that day rather than posting yesterday's late.
 */
export function dueDigestKey(s: DigestSchedule, now: Date): string | null {
  const local = localClock(now, s.timezone);
  if (local.time < s.postTime) return null;
  if (s.cadence === 'weekly' && local.weekday !== (s.weekday ?? 1)) return null;
  return local.date;
}
