import type { Paper, PaperVersion } from '../db/schema.ts';
import {
  previousVersion,
  retireSummaries,
  updateVersion,
  versionSettings,
  versionsToDiff,
} from '../db/queries/versions.ts';
import { insertVersionNotices, versionRecipients } from '../db/queries/version-notices.ts';
import { diffVersions, versionNote, type VersionChange } from '../src/core/papers/version-diff.ts';
import { versionNoticeNonce } from '../src/core/subscriptions/version-notice.ts';
import { getText } from '../db/queries/paper-texts.ts';
import type { HttpOptions } from '../src/services/sources/http.ts';
import { fetchTexts } from './fetch-text.ts';
import type { JobDeps, JobStats } from './index.ts';

/** A new version whose text is still missing this long after it was announced is compared from its abstract. */
export const TEXT_WAIT_DAYS = 3;

/**
 * Compares each newly announced version of a GRPO-family paper with the one before, once its text is
 * settled (read, known to have none, or given up on: see `versionsToDiff`): the note on its card, and
 * for a meaningful change, the summaries retired to the old version (re-written by the summariser)
 * and one note planned per follower of its families and voter for it (sent by the notify job
 * through the outbox). Each version is compared once, in one transaction with what it plans.
 * With `arxivHttp`, the version replaced is read first when its text never was (one paced request
 * each), so its settings can be compared too.
 */
export async function diffNewVersions(
  deps: JobDeps,
  opts: { limit?: number; arxivHttp?: HttpOptions } = {},
): Promise<JobStats> {
  const now = deps.now();
  const todo = await versionsToDiff(deps.db, {
    waitUntil: new Date(now.getTime() - TEXT_WAIT_DAYS * 86_400_000),
    limit: opts.limit ?? 100,
  });
  const stats = { compared: 0, meaningful: 0, wordingOnly: 0, noticesPlanned: 0, previousRead: 0 };
  for (const { version, paper } of todo) {
    if (opts.arxivHttp?.signal?.aborted) break;
    if (opts.arxivHttp) stats.previousRead += await readPrevious(deps, paper, version, opts.arxivHttp);
    const outcome = await diffOne(deps, paper, version, now);
    stats.compared++;
    if (!outcome) continue;
    stats[outcome.change.meaningful ? 'meaningful' : 'wordingOnly']++;
    stats.noticesPlanned += outcome.planned;
    deps.log.info(
      { paper: paper.arxivId, version: version.version, note: outcome.note, notices: outcome.planned },
      'new version compared',
    );
  }
  return stats;
}

/** Reads the replaced version's text when it was never tried; returns how many texts were read. */
async function readPrevious(deps: JobDeps, paper: Paper, row: PaperVersion, http: HttpOptions): Promise<number> {
  const prev = await previousVersion(deps.db, paper.id, row.version);
  if (!prev || prev.settings || (await getText(deps.db, paper.id, prev.version))) return 0;
  const read = await fetchTexts(deps, {
    limit: 1,
    arxivHttp: http,
    papers: [{ ...paper, arxivVersion: prev.version }],
  });
  return Number(read.ok);
}

async function diffOne(deps: JobDeps, paper: Paper, row: PaperVersion, now: Date) {
  return deps.db.transaction(async (tx) => {
    const prev = await previousVersion(tx, paper.id, row.version);
    const settings = await versionSettings(tx, paper.id, row.version);
    if (!prev) {
      await updateVersion(tx, paper.id, row.version, { settings, diffedAt: now });
      return undefined;
    }
    const prevSettings = prev.settings ?? (await versionSettings(tx, paper.id, prev.version));
    const change: VersionChange = diffVersions(
      { title: prev.title, abstract: prev.abstract, settings: prevSettings },
      { title: row.title, abstract: row.abstract, settings },
    );
    const note = versionNote(row.version, row.announcedOn, change);
    const summary = change.meaningful ? await retireSummaries(tx, paper.id) : null;
    await updateVersion(tx, paper.id, prev.version, {
      settings: prevSettings,
      ...(summary && Object.keys(summary).length > 0 && { summary }),
    });
    await updateVersion(tx, paper.id, row.version, {
      settings,
      changes: change.items,
      meaningful: change.meaningful,
      note,
      diffedAt: now,
    });
    let planned = 0;
    if (change.meaningful) {
      const recipients = await versionRecipients(tx, paper.id);
      planned = await insertVersionNotices(
        tx,
        recipients.map((r) => ({
          ...r,
          paperId: paper.id,
          version: row.version,
          nonce: versionNoticeNonce(r.userId, paper.id, row.version),
        })),
        now,
      );
    }
    return { change, note, planned };
  });
}
