import type { PaperSummaryRow } from '../../../db/queries/papers.ts';
import { LIMITS, truncate, untrustedText, type Embed, type Reply } from '../reply.ts';
import { byline, linkTitle, paperLinks } from '../papers/links.ts';
import { readable } from '../papers/latex.ts';
import { paperDate } from '../papers/date.ts';

/** One line of metadata under a title: date, byline, families, upvotes. */
function meta(p: PaperSummaryRow): string {
  const by = byline(p);
  const bits = [
    paperDate(p)?.slice(0, 7),
    by && untrustedText(by),
    p.families.length ? p.families.join(', ') : undefined,
  ];
  if (p.hfUpvotes) bits.push(`▲ ${p.hfUpvotes}`);
  return bits.filter(Boolean).join(' · ');
}

/** A ranked list of papers as one embed, each entry a linked title, metadata, an id to `/paper show`, and a snippet. */
export function paperListReply(opts: {
  title: string;
  papers: PaperSummaryRow[];
  startAt?: number;
  footer?: string;
  snippet?: number;
}): Reply {
  const start = opts.startAt ?? 1;
  const perEntry = Math.floor((LIMITS.description - 100) / Math.max(opts.papers.length, 1));
  const entries = opts.papers.map((p, i) => {
    const head = `**${start + i}. [${truncate(linkTitle(p.title), 200)}](${paperLinks(p).main})**`;
    const id = p.arxivId ? `\`${p.arxivId}\`` : undefined;
    const line2 = [id, meta(p)].filter(Boolean).join(' · ');
    const snippet =
      opts.snippet === 0 ? '' : truncate(untrustedText(readable(p.abstract.replace(/\s+/g, ' '))), opts.snippet ?? 160);
    return truncate([head, line2, snippet].filter(Boolean).join('\n'), perEntry);
  });
  const embed: Embed = { title: truncate(opts.title, LIMITS.title), description: entries.join('\n\n') };
  if (opts.footer) embed.footer = truncate(opts.footer, LIMITS.footer);
  return { embeds: [embed] };
}
