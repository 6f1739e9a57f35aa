import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { papers } from '../schema.ts';

export async function countPapers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(papers);
  return row?.n ?? 0;
}
