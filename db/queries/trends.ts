/**
 * The papers `/trends` counts: GRPO-family papers (the one definition every command counts) and
 * families' defining papers, each with the families it is a member of, that appeared in a date range. A paper's
 * day is when a feed announced it, else its publication date; a paper dated only by its month (the
 * schema's 1st of the month, with no announcement) cannot be put in a week and comes back with
 * `day` null, so the answer can say how many were left out.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { TrendPaperRow } from '../../src/core/pictures/trends.ts';
import { familyNames, memberOf } from './families.ts';
import type { FamilyRef } from '../../src/core/papers/families.ts';

/** Announced in [from, to), or published then when never announced; `from`/`to` are UTC dates (YYYY-MM-DD). */
export async function trendPapers(
  db: Db,
  families: readonly FamilyRef[],
  range: { from: string; to: string },
): Promise<TrendPaperRow[]> {
  const defining = families.map((f) => f.arxivId).filter((id): id is string => id !== null);
  const rows = await db.execute<TrendPaperRow & { month_only: boolean }>(sql`
    select to_char(coalesce((p.news_at at time zone 'UTC')::date, p.published_on), 'YYYY-MM-DD') as day,
      p.news_at is null and extract(day from p.published_on) = 1 as month_only,
      coalesce(p.grpo_family, false) as "grpoFamily", ${familyNames(families, { defining: true })} as families, p.topics,
      p.hf_upvotes as "hfUpvotes", p.title, p.arxiv_id as "arxivId"
    from papers p
    where ((p.news_at >= (${range.from}::date::timestamp at time zone 'UTC') and p.news_at < (${range.to}::date::timestamp at time zone 'UTC'))
        or (p.news_at is null and p.published_on >= ${range.from}::date and p.published_on < ${range.to}::date))
      and (coalesce(p.grpo_family, false) or p.arxiv_id in (${sql.join(
        defining.map((id) => sql`${id}`),
        sql`, `,
      )}))`);
  return rows
    .map(({ month_only, ...r }) => ({ ...r, day: month_only ? null : r.day }))
    .filter((r) => r.grpoFamily || r.families.length > 0);
}

/** The newest day a paper of the subject (GRPO-family papers, or a family's; optionally in a topic) is dated by, if any. */
export async function newestTrendDay(
  db: Db,
  subject: { family?: FamilyRef; topic?: string },
): Promise<string | undefined> {
  const inSubject = subject.family ? memberOf(subject.family, { defining: true }) : sql`p.grpo_family`;
  const inTopic = subject.topic ? sql`${subject.topic}::text = any(p.topics)` : sql`true`;
  const [row] = await db.execute<{ day: string | null }>(sql`
    select to_char(max(coalesce((p.news_at at time zone 'UTC')::date, case when extract(day from p.published_on) <> 1 then p.published_on end)), 'YYYY-MM-DD') as day
    from papers p where ${inSubject} and ${inTopic}`);
  return row?.day ?? undefined;
}
