import { recordTitleLookup, titleOnlyPapers } from '../db/queries/ingest.ts';
import { ingestCandidates } from '../src/services/ingest/ingest.ts';
import { titleKey } from '../src/core/papers/identity.ts';
import { arxivApiUrl, parseArxivApi, titleQuery } from '../src/services/sources/arxiv-api.ts';
import { fetchText, type HttpOptions } from '../src/services/sources/http.ts';
import { assessAttempts, type Assessment, type JobDeps, type JobStats } from './index.ts';

export interface ResolveOptions {
  /** At most this many lookups (each is one paced arXiv request, 3 s apart). */
  limit: number;
  arxivHttp: HttpOptions;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Gives papers known only by title (seed entries) their arXiv id: one title search each, and a
 * result counts only when its normalised title is the same. The match is stored like any feed item,
 * so the existing row gets its id, version and abstract rather than a duplicate. A title that is
 * not found is remembered and not asked again.
 */
export async function resolveTitles(deps: JobDeps, opts: ResolveOptions): Promise<JobStats> {
  const todo = await titleOnlyPapers(deps.db, opts.limit);
  let resolved = 0;
  let failed = 0;
  let firstError: string | null = null;
  for (const [i, p] of todo.entries()) {
    if (opts.arxivHttp.signal?.aborted) break;
    const query = searchable(p.title);
    if (!query) {
      await recordTitleLookup(deps.db, p.id, p.titleKey, null, deps.now());
      continue;
    }
    try {
      const res = await fetchText(
        arxivApiUrl(deps.config.sources.arxivApiBase, { searchQuery: query, maxResults: 5 }),
        undefined,
        opts.arxivHttp,
      );
      const match =
        res.status === 'ok'
          ? (await parseArxivApi(res.body)).candidates.find((c) => titleKey(c.title) === p.titleKey)
          : undefined;
      if (match) {
        const s = await ingestCandidates(deps, [match], { newsAt: null });
        if (s.merged > 0) resolved++;
      }
      await recordTitleLookup(deps.db, p.id, p.titleKey, match?.arxivId ?? null, deps.now());
    } catch (err) {
      failed++;
      firstError ??= err instanceof Error ? err.message : String(err);
      deps.log.warn({ err, paper: p.id }, 'title lookup failed; it will be tried again');
    }
    opts.onProgress?.(i + 1, todo.length);
  }
  return { looked: todo.length, resolved, failed, firstError };
}

/** A lookup run failed when every lookup failed (a title arXiv does not have is an answer, not a failure). */
export function assessLookups(stats: JobStats): Assessment | undefined {
  const failed = Number(stats.failed);
  return assessAttempts(Number(stats.looked), Array(failed).fill(String(stats.firstError)), ['lookup', 'lookups']);
}

/** A title with no letters or digits cannot be searched for; it is recorded as not found. */
function searchable(title: string): string | null {
  try {
    return titleQuery(title);
  } catch {
    return null;
  }
}
