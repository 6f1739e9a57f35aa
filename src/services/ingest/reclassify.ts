import type { Db, DbOrTx } from '../../../db/client.ts';
import { getState, setState } from '../../../db/queries/app-state.ts';
import {
  classificationsOf,
  paperIdsAfter,
  reclassifiedColumns,
  saveClassification,
} from '../../../db/queries/classification.ts';
import { classifyPaper, RULES_VERSION } from '../../core/papers/classify.ts';

const same = (a: readonly unknown[] | null, b: readonly unknown[]) => JSON.stringify(a ?? []) === JSON.stringify(b);

/**
 * Classifies stored papers from their title and abstract and stores the verdict, families (unless the
 * judge named them), topics and reasons. Deterministic, so re-running writes nothing unless the rules changed. Returns how
 * many rows changed.
 */
export async function classifyStored(db: DbOrTx, paperIds: number[], now: Date): Promise<number> {
  let changed = 0;
  for (const r of await classificationsOf(db, paperIds)) {
    const c = classifyPaper({ title: r.title, abstract: r.abstract });
    const columns = reclassifiedColumns(c, now);
    if (
      r.rulesFamily === c.grpoFamily &&
      r.score !== null &&
      Math.abs(r.score - columns.rulesScore) < 1e-6 &&
      (r.judgeNamed || same(r.families, c.families)) &&
      same(r.topics, c.topics) &&
      same(r.reasons, c.reasons)
    )
      continue;
    await saveClassification(db, r.id, columns);
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
export async function reclassifyIfRulesChanged(
  deps: { db: Db; now: () => Date },
  batch = 1000,
): Promise<number | null> {
  const { db } = deps;
  if ((await getState<string>(db, RULES_KEY)) === RULES_VERSION) return null;
  let changed = 0;
  for (let after = 0; ;) {
    const ids = await paperIdsAfter(db, after, batch);
    if (ids.length === 0) break;
    changed += await db.transaction((tx) => classifyStored(tx, ids, deps.now()));
    after = ids.at(-1)!;
  }
  await setState(db, RULES_KEY, RULES_VERSION, deps.now());
  return changed;
}
