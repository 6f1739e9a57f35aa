/**
 * Which stretch of news a digest covers, and its date, in the channel's own time zone. Pure.
 * The window ends when the digest is composed (or at the channel's post time on a given date) and
 * starts at the channel's last digest, or one cadence period earlier if it has never posted (or
 * its last digest is not before the end, as when re-rendering a past date).
 */

const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** A usable IANA zone: the channel's, or UTC when it is not one this runtime knows. */
export function safeZone(timeZone: string): string {
  try {
    format(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

function localParts(at: Date, timeZone: string): Record<string, number> {
  return Object.fromEntries(
    format(timeZone)
      .formatToParts(at)
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  );
}

/** The local calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(at: Date, timeZone: string): string {
  const p = localParts(at, safeZone(timeZone));
  return `${String(p.year)}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offset(at: Date, timeZone: string): number {
  const p = localParts(at, timeZone);
  const wall = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant at which the wall clock in `timeZone` shows `hhmm` on `date` (the later reading in a DST gap). */
export function zonedTime(date: string, hhmm: string, timeZone: string): Date {
  const zone = safeZone(timeZone);
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = hhmm.split(':').map(Number);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0);
  let at = wall - offset(new Date(wall), zone);
  at = wall - offset(new Date(at), zone);
  return new Date(at);
}

export interface DigestWindow {
  /** The digest's local date: its header and its delivery key. */
  date: string;
  /** News after this instant (exclusive)… */
  since: Date;
  /** …up to this one (inclusive). */
  until: Date;
}

export interface WindowChannel {
  cadence: string;
  timezone: string;
  postTime: string;
  lastDigestAt: Date | null;
}

export function digestWindow(ch: WindowChannel, opts: { now: Date; date?: string }): DigestWindow {
  const date = opts.date ?? localDate(opts.now, ch.timezone);
  const until = opts.date ? zonedTime(opts.date, ch.postTime, ch.timezone) : opts.now;
  const period = ch.cadence === 'weekly' ? 7 * DAY_MS : DAY_MS;
  const since =
    ch.lastDigestAt && ch.lastDigestAt.getTime() < until.getTime()
      ? ch.lastDigestAt
      : new Date(until.getTime() - period);
  return { date, since, until };
}
