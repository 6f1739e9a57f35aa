/**
 * The round-trip measurement shared by the test and the benchmark: damage
 * clean Chinese the way the seeds were damaged, repair it, and count how many
 * of the damaged characters come back exactly.
 */
import { canLoseByte } from './utf8.ts';
import { damageLikeSeeds, repairMojibake, type RepairResult } from './index.ts';

export interface RoundTrip {
  /** Characters the damage touched (their UTF-8 holds a dropped byte). */
  damaged: number;
  /** Of those, characters the repair gave back exactly. */
  exact: number;
  rate: number;
  /** Characters outside the damage that the repair changed (should be 0). */
  collateral: number;
  /** Up to 50 misses: expected, got, context. */
  misses: { expected: string; got: string; context: string }[];
}

/** Round trip over each line containing Chinese (a line is a paragraph in the sources used). */
export function measureRoundTrip(
  cleanTexts: readonly string[],
  repair: (damaged: string) => RepairResult = repairMojibake,
): RoundTrip {
  const result: RoundTrip = { damaged: 0, exact: 0, rate: 0, collateral: 0, misses: [] };
  for (const text of cleanTexts) {
    for (const line of text.split('\n')) {
      if (!/\p{Script=Han}/u.test(line)) continue;
      const expected = Array.from(line);
      const got = Array.from(repair(damageLikeSeeds(line)).text);
      if (got.length !== expected.length) throw new Error(`round trip changed the length of: ${line}`);
      expected.forEach((ch, i) => {
        if (!canLoseByte(ch)) {
          if (got[i] !== ch) result.collateral += 1;
          return;
        }
        result.damaged += 1;
        if (got[i] === ch) result.exact += 1;
        else if (result.misses.length < 50)
          result.misses.push({
            expected: ch,
            got: got[i] ?? '',
            context: expected.slice(Math.max(0, i - 6), i + 6).join(''),
          });
      });
    }
  }
  result.rate = result.damaged === 0 ? 1 : result.exact / result.damaged;
  return result;
}
