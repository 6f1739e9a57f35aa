/**
 * What arXiv can issue, so one hostile or broken feed item cannot claim more (pure). A value outside
 * is treated as not given (never clamped to the edge: a date clamped to tomorrow would still sort a
 * paper first, and a version clamped to 99 would still replace the text).
 */

/** arXiv opened in August 1991: no paper was submitted before. */
export const FIRST_ARXIV_DAY = '1991-08-01';
/** The highest version arXiv has issued is in the 60s; 99 leaves room. */
export const MAX_VERSION = 99;
/** A new item may bump a stored paper by at most this many versions at once. */
export const MAX_VERSION_STEP = 20;

/**
 * A published day, if arXiv could have issued it by `today` (YYYY-MM-DD, UTC): a real calendar day
 * from 1991-08-01 to the day after today (announcements are dated in US Eastern time, ahead of UTC's
 * evening). Anything else is no date, and the paper falls back to its arXiv id's month.
 */
export function plausibleDay(day: string | undefined, today: string): string | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const t = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day) return undefined;
  const latest = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return day >= FIRST_ARXIV_DAY && day <= latest ? day : undefined;
}

/** A version, if it is a whole number from 1 to 99 and at most 20 above the stored one (when there is one). */
export function plausibleVersion(version: number | undefined, stored: number | null): number | undefined {
  if (version === undefined || !Number.isInteger(version) || version < 1 || version > MAX_VERSION) return undefined;
  return stored !== null && version > stored + MAX_VERSION_STEP ? undefined : version;
}
