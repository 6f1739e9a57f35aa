/** The damage the seed notes went through, reproduced (tests, the benchmark, context.ts). */
import { CP1254_DECODE, DROPPED_BYTES } from './cp1254.ts';

const DROPPED = new Set(DROPPED_BYTES);
const encoder = new TextEncoder();

/**
 * Damages clean text the same way the seeds were damaged (UTF-8 bytes ->
 * cp1254 decode, unrepresentable bytes dropped, soft hyphens 0xAD dropped too).
 * Used by the round-trip test and the benchmark.
 */
export function damageLikeSeeds(clean: string): string {
  let out = '';
  for (const b of encoder.encode(clean)) if (!DROPPED.has(b)) out += CP1254_DECODE[b] ?? '';
  return out;
}
