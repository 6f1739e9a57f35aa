import { getText, saveText, textCandidates } from '../db/queries/paper-texts.ts';
import type { Paper } from '../db/schema.ts';
import { retryAt } from '../src/services/llm/backoff.ts';
import { selectSections, sectionsChars, sectionsText, usefulSections } from '../src/core/papers/paper-text.ts';
import { extractSettings } from '../src/core/papers/settings-rules.ts';
import { keepEvidenced } from '../src/core/papers/settings.ts';
import { arxivHtmlUrl, parseArxivHtml } from '../src/services/sources/arxiv-html.ts';
import { fetchText, HttpError, type HttpOptions } from '../src/services/sources/http.ts';
import { errorSummary, isDatabaseUnavailable } from '../src/core/errors.ts';
import { assessAttempts, type Assessment, type JobDeps, type JobStats } from './index.ts';

export interface FetchTextOptions {
  /** At most this many papers (each one paced arXiv request, 3 s apart). */
  limit: number;
  /** The run's arXiv HTTP options: its pacer is shared with every other arXiv request of the run. */
  arxivHttp: HttpOptions;
  /** Exactly these papers, whatever is stored for them (the CLI's --paper); by default the candidates. */
  papers?: Paper[];
  onProgress?: (done: number, total: number) => void;
}

/** What became of one paper's fetch: read, no HTML on arXiv, or failed (with the short cause). */
type TextOutcome = 'ok' | 'no-html' | { failed: string };

/**
 * Reads the full text of GRPO-family papers from arXiv's HTML, one version each: the units that
 * matter, capped at TEXT_MAX_CHARS, and the settings the rules extractor finds in them. A paper
 * without HTML (a 404, or a 200 with a stub page) is recorded `no-html` and keeps working from its
 * abstract; a failed fetch is tried again later (2 h, 8 h, 32 h), then left. Nothing here blocks a
 * summary or a digest: they read whatever text exists.
 */
export async function fetchTexts(deps: JobDeps, opts: FetchTextOptions): Promise<JobStats> {
  const todo =
    opts.papers?.map((paper) => ({ paper, attempts: 0 })) ??
    (await textCandidates(deps.db, { limit: opts.limit, now: deps.now() }));
  const stats = { candidates: todo.length, ok: 0, noHtml: 0, failed: 0, firstError: null as string | null };
  for (const [i, { paper, attempts }] of todo.entries()) {
    if (opts.arxivHttp.signal?.aborted) break;
    const outcome = await fetchOne(deps, paper, attempts, opts.arxivHttp);
    if (typeof outcome === 'object') {
      stats.failed++;
      stats.firstError ??= outcome.failed;
    } else stats[outcome === 'no-html' ? 'noHtml' : 'ok']++;
    opts.onProgress?.(i + 1, todo.length);
  }
  return stats;
}

/** A fetch run failed when every paper's fetch failed (no HTML on arXiv is an answer, not a failure). */
export function assessFetch(stats: JobStats): Assessment | undefined {
  const failed = Number(stats.failed);
  const tried = Number(stats.ok) + Number(stats.noHtml) + failed;
  return assessAttempts(tried, Array(failed).fill(String(stats.firstError)), ['fetch', 'fetches']);
}

async function fetchOne(deps: JobDeps, paper: Paper, attempts: number, http: HttpOptions): Promise<TextOutcome> {
  const version = paper.arxivVersion ?? 0;
  const url = arxivHtmlUrl(deps.config.sources.arxivHtmlBase, paper.arxivId!, paper.arxivVersion);
  const log = deps.log.child({ paper: paper.arxivId, version });
  const now = deps.now();
  const base = { paperId: paper.id, version, url, fetchedAt: now };
  try {
    const res = await fetchText(url, undefined, { ...http, accept: 'text/html', retries: 1 });
    const page =
      res.status === 'ok'
        ? parseArxivHtml(res.body)
        : { kind: 'no-html' as const, reason: 'HTTP 304 to a request that asked for no validators' };
    if (page.kind === 'no-html') {
      await saveText(deps.db, {
        ...base,
        status: 'no-html',
        reason: page.reason,
        sections: [],
        chars: 0,
        truncated: false,
        rulesSettings: [],
        attempts: 0,
        retryAt: null,
      });
      log.info({ reason: page.reason }, 'no HTML full text; the paper keeps its abstract');
      return 'no-html';
    }
    const { sections, truncated } = selectSections(usefulSections(page.sections), deps.config.text.maxChars);
    const rulesSettings = keepEvidenced(extractSettings(sections), sectionsText(sections)).kept;
    await saveText(deps.db, {
      ...base,
      status: 'ok',
      reason: page.conversionWarning ? 'arXiv reports conversion errors; parts may be missing' : null,
      sections,
      chars: sectionsChars(sections),
      truncated,
      rulesSettings,
      attempts: 0,
      retryAt: null,
    });
    log.info(
      { sections: sections.length, chars: sectionsChars(sections), settings: rulesSettings.length },
      'full text stored',
    );
    return 'ok';
  } catch (caught) {
    // The database going away fails the run (it is retried); anything else about one paper's page
    // (a fetch, a page the reader cannot take) fails only that paper, tried again later.
    if (isDatabaseUnavailable(caught)) throw caught;
    const err = caught instanceof HttpError ? caught : new Error(`reading the page failed: ${errorSummary(caught)}`);
    if (err instanceof HttpError && (err.httpStatus === 404 || err.httpStatus === 410)) {
      await saveText(deps.db, {
        ...base,
        status: 'no-html',
        reason: `arXiv has no HTML for this version (HTTP ${err.httpStatus})`,
        sections: [],
        chars: 0,
        truncated: false,
        rulesSettings: [],
        attempts: 0,
        retryAt: null,
      });
      return 'no-html';
    }
    // A text fetched earlier for this version is kept: a failed refresh never loses it.
    if ((await getText(deps.db, paper.id, version))?.status === 'ok') return { failed: err.message };
    const tries = attempts + 1;
    const retry = retryAt(tries, now);
    await saveText(deps.db, {
      ...base,
      status: 'failed',
      reason: err.message.slice(0, 300),
      sections: [],
      chars: 0,
      truncated: false,
      rulesSettings: [],
      attempts: tries,
      retryAt: retry,
    });
    log.warn(
      { err: err.message, attempts: tries, retryAt: retry },
      retry ? 'full text fetch failed; tried again later' : 'full text fetch failed for good',
    );
    return { failed: err.message };
  }
}
