/**
 * When an item whose answer failed (malformed, refused, cut off, or rejected on its own) is tried
 * again: on later runs, further apart each time, a few attempts in all; then it fails for good and
 * readers keep the extractive fallback. Pure; the summariser stores the attempt count and the time,
 * and the relevance judge can use the same schedule.
 */
export const MAX_ATTEMPTS = 4;

/** After the first, second and third failed attempt. */
const WAITS_MS = [2, 8, 32].map((h) => h * 3_600_000);

/** When to try again after `attempts` failed attempts, or null when that was the last. */
export function retryAt(attempts: number, now: Date): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + WAITS_MS[Math.max(0, attempts - 1)]!);
}
