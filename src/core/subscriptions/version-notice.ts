/**
 * The short note a subscriber gets when a paper they follow (by family, or by voting for it in the
 * reading-group queue) has a meaningful new version. Paper text can never ping: it is neutralised
 * here, and the adapter allows only the subscriber's own mention. Pure.
 */
import { createHash } from 'node:crypto';
import { LIMITS, untrustedText, type Reply } from '../reply.ts';
import { fit, squash } from '../text/clip.ts';
import { readable } from '../papers/latex.ts';
import { paperLinks } from '../papers/links.ts';

export interface VersionNoticeInput {
  paper: { arxivId: string | null; title: string };
  /** The version's note: "v3 (2026-11-20): group size 8 -> 16; new AIME25 results". */
  note: string;
  /** Why this user is told. */
  reason: 'family' | 'voter' | string;
}

/** Discord nonces are at most 25 characters: a stable hash of what the message is. */
export function versionNoticeNonce(userId: string, paperId: number, version: number): string {
  return createHash('sha256').update(`version|${userId}|${paperId}|${version}`).digest('base64url').slice(0, 25);
}

/** One line of content, with the paper linked and why the user hears of it. */
export function versionNotification(n: VersionNoticeInput): Reply {
  const title = fit(untrustedText(squash(readable(n.paper.title))), 200);
  const why = n.reason === 'voter' ? 'you voted for it in the reading-group queue' : 'you follow its family';
  const note = fit(untrustedText(squash(n.note)), 600);
  const link = n.paper.arxivId ? `[${title}](<${paperLinks({ ...n.paper, arxivVersion: null }).main}>)` : title;
  return { content: fit(`New version of ${link} (${why}): ${note}`, LIMITS.content) };
}
