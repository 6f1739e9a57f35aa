/**
 * The seed notes' repairs, computed once when the package is built instead of on every first start.
 * Repairing the 130 damaged notes takes ~4 s of CPU; every fresh data folder (and every test that
 * starts one) imports the seeds. `npm run build` writes `dist/seed-repairs.json`: each damaged
 * text's hash with its repair, and a fingerprint of the repair's code and model. A cache whose
 * fingerprint does not match the code on disk (the code changed after the build) is ignored, and
 * a text it does not hold is repaired live: the cache can make a start faster, never different.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fromPackageRoot } from '../../src/services/package-files.ts';
import { repairMojibake, type RepairResult } from './index.ts';

export const REPAIR_CACHE_FILE = fromPackageRoot('dist/seed-repairs.json');
const REPAIR_DIR = fromPackageRoot('seeds/repair');

interface CacheFile {
  fingerprint: string;
  repairs: Record<string, RepairResult>;
}

const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

/** A hash of every file the repair reads or runs (its code and its word model). */
export function repairFingerprint(dir = REPAIR_DIR): string {
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.ts') || n.endsWith('.txt'))
    .sort();
  return sha(names.map((n) => `${n}:${sha(readFileSync(path.join(dir, n)))}`).join('\n'));
}

function loadCache(file: string): Map<string, RepairResult> {
  if (!existsSync(file)) return new Map();
  try {
    const cache = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    if (cache.fingerprint !== repairFingerprint()) return new Map();
    return new Map(Object.entries(cache.repairs));
  } catch {
    return new Map(); // unreadable: repair live
  }
}

/** `repairMojibake`, answered from the build's cache when it holds the text, remembered for this process. */
export function cachedRepair(file = REPAIR_CACHE_FILE): (damaged: string) => RepairResult {
  let known: Map<string, RepairResult> | undefined;
  return (damaged) => {
    known ??= loadCache(file);
    const key = sha(damaged);
    let result = known.get(key);
    if (!result) {
      result = repairMojibake(damaged);
      known.set(key, result);
    }
    return result;
  };
}

/** Repairs every damaged note of the seed documents and writes the cache (run by `npm run build`). */
export async function writeRepairCache(texts: Iterable<string>, file = REPAIR_CACHE_FILE): Promise<number> {
  const repairs: Record<string, RepairResult> = {};
  for (const t of texts) repairs[sha(t)] = repairMojibake(t);
  const cache: CacheFile = { fingerprint: repairFingerprint(), repairs };
  await writeFile(file, JSON.stringify(cache));
  return Object.keys(repairs).length;
}
