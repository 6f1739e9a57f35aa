/**
 * `npm run build` step: repairs the seed notes once and writes dist/seed-repairs.json (see repair/cache.ts),
 * so a first start imports the seeds without repairing them again.
 */
import { SEED_DIR } from '../src/services/package-files.ts';
import { loadSeedCorpus } from './parse/index.ts';
import { writeRepairCache } from './repair/cache.ts';

const damaged: string[] = [];
await loadSeedCorpus(SEED_DIR, {
  repair: (text) => {
    damaged.push(text);
    return { text, restored: 0, unresolved: 0 };
  },
});
await writeRepairCache(damaged);
