/**
 * Calendar days as users type them and as papers carry them (pure). One place for "is this a date",
 * so every option that takes a day answers a mistake the same way.
 */

/** `YYYY-MM-DD` (one-digit month and day forgiven) as a real calendar day, normalised; undefined otherwise. */
export function parseDay(text: string): string | undefined {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (!m) return undefined;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (at.getUTCMonth() !== Number(m[2]) - 1 || at.getUTCDate() !== Number(m[3])) return undefined;
  return at.toISOString().slice(0, 10);
}

/** "a date like 2026-11-01": an example in the current month, for messages about a day that is not one. */
export function dayExample(now: Date): string {
  return `a date like ${now.toISOString().slice(0, 8)}01`;
}
