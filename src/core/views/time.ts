/**
 * Times in replies. Discord renders `<t:unix:style>` in each reader's own time zone and locale;
 * the console renders the same markup as UTC (src/adapters/console/render.ts).
 */

/** `f`: date and time; `R`: relative ("in 3 hours"). */
export function discordTime(at: Date, style: 'f' | 'R' = 'f'): string {
  return `<t:${Math.floor(at.getTime() / 1000)}:${style}>`;
}

/** "<date and time> (<relative>)", the form used for "next post" and "last success". */
export function whenText(at: Date): string {
  return `${discordTime(at)} (${discordTime(at, 'R')})`;
}
