import { asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.ts';
import { appState, papers } from '../schema.ts';
import { classifyPaper, RULES_VERSION, type Classification } from '../../src/papers/classify.ts';

/**
 * A verdict as the `papers` columns store it, for every writer (seed import, feeds, re-classification).
 * Once in the searchable corpus, always: a later, stricter verdict never hides a paper users found.
 */
export function classificationColumns(c: Classification, at: Date) {
  return {
    grpoFamily: c.grpoFamily, ...(c.grpoFamily && { indexed: true }), familyScore: Math.round(c.score * 1000) / 1000,
    families: c.families, topics: c.topics, classifyReasons: c.reasons, classifiedAt: at,
  };
}

const same = (a: readonly unknown[] | null, b: readonly unknown[]) => JSON.stringify(a ?? []) === JSON.stringify(b);

/**
 * Classifies stored papers from their title and abstract and stores the verdict, families, topics
 * and reasons. Deterministic, so re-running writes nothing unless the rules changed. Returns how
 * many rows changed.
 */
export async function classifyStored(db: DbOrTx, paperIds: number[]): Promise<number> {
  if (paperIds.length === 0) return 0;
  const rows = await db
    .select({ id: papers.id, title: papers.title, abstract: papers.abstract, grpoFamily: papers.grpoFamily, score: papers.familyScore, families: papers.families, topics: papers.topics, reasons: papers.classifyReasons })
    .from(papers)
    .where(inArray(papers.id, paperIds));
  let changed = 0;
  for (const r of rows) {
    const c = classifyPaper({ title: r.title, abstract: r.abstract });
    const columns = classificationColumns(c, new Date());
    if (r.grpoFamily === c.grpoFamily && r.score !== null && Math.abs(r.score - columns.familyScore) < 1e-6 && same(r.families, c.families) && same(r.topics, c.topics) && same(r.reasons, c.reasons)) continue;
    await db.update(papers).set(columns).where(eq(papers.id, r.id));
    changed++;
  }
  return changed;
}

const RULES_KEY = 'classifier-rules-version';

/**
 * Re-classifies every stored paper once after the rules changed (RULES_VERSION differs from the one
 * recorded), in id order and in batches so a large corpus never holds one long transaction.
 * Returns how many rows changed, or null when the rules are unchanged.
 */
export async function reclassifyIfRulesChanged(db: Db, batch = 1000): Promise<number | null> {
  const [row] = await db.select().from(appState).where(eq(appState.key, RULES_KEY));
  if (row?.value === RULES_VERSION) return null;
  let changed = 0;
  for (let after = 0; ;) {
    const ids = (await db.select({ id: papers.id }).from(papers).where(gt(papers.id, after)).orderBy(asc(papers.id)).limit(batch)).map((r) => r.id);
    if (ids.length === 0) break;
    changed += await db.transaction((tx) => classifyStored(tx, ids));
    after = ids.at(-1)!;
  }
  await db.insert(appState).values({ key: RULES_KEY, value: RULES_VERSION })
    .onConflictDoUpdate({ target: appState.key, set: { value: RULES_VERSION, updatedAt: new Date() } });
  return changed;
}
