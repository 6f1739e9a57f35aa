import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cachedRepair, repairFingerprint, writeRepairCache } from '../../seeds/repair/cache.ts';
import { damageLikeSeeds, repairMojibake } from '../../seeds/repair/index.ts';

const note = damageLikeSeeds('论文解读：组相对策略优化在数学推理上的改进，去掉了价值网络。');

describe('the seed repairs cached at build time', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'repair-cache-'));
  });

  it('answers a first start exactly as the live repair would', async () => {
    const file = path.join(dir, 'cache.json');
    expect(await writeRepairCache([note], file)).toBe(1);
    expect(cachedRepair(file)(note)).toEqual(repairMojibake(note));
  });

  it('is read when its fingerprint matches the repair code on disk', async () => {
    const file = path.join(dir, 'planted.json');
    await writeRepairCache([note], file);
    const cache = JSON.parse(await readFile(file, 'utf8')) as { repairs: Record<string, { text: string }> };
    for (const r of Object.values(cache.repairs)) r.text = 'from the cache';
    await writeFile(file, JSON.stringify(cache));
    expect(cachedRepair(file)(note).text).toBe('from the cache');
  });

  it('is ignored after the repair code changed, and a missing or broken file repairs live', async () => {
    const stale = path.join(dir, 'stale.json');
    await writeRepairCache([note], stale);
    const cache = JSON.parse(await readFile(stale, 'utf8')) as { repairs: Record<string, { text: string }> };
    for (const r of Object.values(cache.repairs)) r.text = 'from an older build';
    await writeFile(stale, JSON.stringify({ ...cache, fingerprint: 'an older build' }));
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{not json');
    const live = repairMojibake(note);
    for (const file of [stale, broken, path.join(dir, 'missing.json')]) expect(cachedRepair(file)(note)).toEqual(live);
    expect(repairFingerprint()).toMatch(/^[0-9a-f]{64}$/);
  });
});
