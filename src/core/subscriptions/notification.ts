/**
 * The messages a subscriber receives: one card per matching paper, and one bundle message for
 * the matches over the daily cap. Paper text can never ping (neutralised here, and the adapter
 * allows only the subscriber's own mention). Pure.
 */
import { clip, fit, leadSentences, squash } from '../text/clip.ts';
import { LIMITS, untrustedText, type Reply } from '../reply.ts';
import { byline, paperLinks } from '../papers/links.ts';
import { subscriptionLabel } from './values.ts';
import { readable } from '../papers/latex.ts';

export interface NotifiedPaper {
  id: number;
  arxivId: string | null;
  arxivVersion: number | null;
  title: string;
  abstract: string;
  authors: string[];
  authorCount: number | null;
  organization: string | null;
}

/** A paper a subscriber is told about, with the subscriptions it matched: what a notice shows. */
export interface PaperMatch {
  paper: NotifiedPaper;
  /** The subscriptions it matched (may be empty when one was removed since it was planned). */
  matched: { kind: string; value: string }[];
}

const COLOR = 0x57f287;
const FOOTER = '/unsubscribe to stop following something · /subscriptions for delivery and the daily cap';

const titleOf = (p: NotifiedPaper) => fit(untrustedText(squash(readable(p.title))), LIMITS.title);
const matchedText = (n: PaperMatch) =>
  n.matched.map((m) => `\`${subscriptionLabel(m)}\``).join(', ') || 'your subscriptions';

/** One paper: who wrote it, its first sentences, what it matched. */
export function paperNotification(n: PaperMatch): Reply {
  const { paper } = n;
  const by = byline(paper);
  const description = [by ? `*${clip(by, 300)}*` : '', clip(leadSentences(readable(paper.abstract), 600), 700)]
    .filter(Boolean)
    .join('\n\n');
  return {
    content: `A new paper matches ${clip(matchedText(n), 500)}.`,
    embeds: [
      {
        title: titleOf(paper),
        url: paperLinks(paper).main,
        ...(description && { description }),
        color: COLOR,
        fields: [{ name: 'Matched', value: fit(matchedText(n), LIMITS.fieldValue) }],
        footer: FOOTER,
      },
    ],
  };
}

/** The matches over the daily cap, listed in one message. */
export function bundleNotification(items: readonly PaperMatch[], dailyCap: number): Reply {
  const lines: string[] = [];
  let size = 0;
  for (const [i, n] of items.entries()) {
    const line = `• [${fit(titleOf(n.paper), 200)}](${paperLinks(n.paper).main})`;
    if (size + line.length + 1 > LIMITS.description - 40) {
      lines.push(`…and ${items.length - i} more.`);
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  const count = `${items.length} more matching paper${items.length === 1 ? '' : 's'}`;
  return {
    content: `And ${count} today (over your daily cap of ${dailyCap}):`,
    embeds: [{ title: `And ${count}`, description: lines.join('\n'), color: COLOR, footer: FOOTER }],
  };
}

/** The same message in a shared channel: it starts with the subscriber's mention (the only ping allowed). */
export function mentioning(userId: string, reply: Reply): Reply {
  return { ...reply, content: fit(`<@${userId}> ${reply.content ?? ''}`.trim(), LIMITS.content) };
}
