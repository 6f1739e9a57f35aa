/**
 * One paper of a digest: an embed (title linked to arXiv, byline, families and topics, TL;DR, GRPO
 * delta, links, signals) and its button row (vote + links). Pure.
 *
 * Every embed fits EMBED_BUDGET characters, a fifth of Discord's 6,000 per message, so five papers
 * (the most one message can carry with one button row each) always fit together. Paper text goes
 * through untrustedText (markdown shown as text, mentions defused) before it is measured, and the
 * description (TL;DR last) is cut last.
 */
import { embedSize, LIMITS, untrustedText, type Button, type Embed, type EmbedField } from '../reply.ts';
import { byline, paperLinks } from '../papers/links.ts';
import { compactDelta } from './delta.ts';
import type { DigestLabels } from './labels.ts';
import { clip, fit, squash } from '../text/clip.ts';
import type { DigestLanguage, DigestPaper, DigestSummary } from './types.ts';
import { CUSTOM_IDS } from '../custom-id.ts';
import { readable } from '../papers/latex.ts';

/** One paper's button row: the vote button and at most four links (Discord: five buttons per row). */
export const PAPERS_PER_MESSAGE = LIMITS.rows;
export const EMBED_BUDGET = Math.floor(LIMITS.embedTotal / PAPERS_PER_MESSAGE);
/** Discord rejects link buttons with longer URLs. */
const MAX_BUTTON_URL = 512;
const COLOR = 0x5865f2;

export interface PaperCard {
  paperId: number;
  embed: Embed;
  buttons: Button[];
  /** The embed's characters as Discord counts them toward the 6,000 per message. */
  size: number;
}

export function paperCard(
  p: DigestPaper,
  summary: DigestSummary | undefined,
  l: DigestLabels,
  lang: DigestLanguage,
): PaperCard {
  const links = paperLinks(p);
  const title = fit(untrustedText(squash(readable(p.title))), LIMITS.title);

  const fields: EmbedField[] = [];
  const delta = compactDelta(summary?.grpoDelta, l.deltaAxes, { max: 250 });
  if (delta) fields.push({ name: l.delta, value: fit(untrustedText(delta), LIMITS.fieldValue) });
  const linkMd = linkLine(
    links.list.filter((x) => x.url !== links.main).map((x) => ({ ...x, label: l.linkName(x.label) })),
  );
  if (linkMd) fields.push({ name: l.links, value: linkMd });
  const footer = signals(p, l);

  const rest = title.length + footer.length + fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  const budget = Math.min(LIMITS.description, EMBED_BUDGET - rest);
  const head = [
    lang === 'zh' && p.titleZh ? clip(p.titleZh, 150) : '',
    clip(byline(p) ?? '', 120),
    clip([...p.families, ...p.topics.map((t) => `#${t}`)].join(' · '), 120),
    summary?.settings ? `⚙ ${clip(summary.settings, 80)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  const heading = summary?.tldr ? tldrHeading(summary, l) : '';
  // The TL;DR gets what the rest of the card leaves; it is cut last, so it goes last.
  const tldr = heading
    ? `\n\n${heading}\n${clip(readable(summary?.tldr ?? ''), budget - head.length - heading.length - 3)}`
    : '';
  const description = fit(`${head}${tldr}`.trim(), budget);

  const embed: Embed = { title, url: links.main, color: COLOR, fields, footer };
  if (description) embed.description = description;
  return { paperId: p.id, embed, buttons: buttons(p.id, links.list, l), size: embedSize(embed) };
}

function tldrHeading(s: DigestSummary, l: DigestLabels): string {
  const label = s.label ?? l.kindLabel[s.kind];
  return `**${l.tldr}**${label ? ` · *${clip(label, 60)}*` : ''}`;
}

/** `[PDF](…) · [Hugging Face](…) · [Code](…)`, leaving out a link rather than cutting one in half. */
function linkLine(list: { label: string; url: string }[]): string {
  const parts: string[] = [];
  let len = 0;
  for (const { label, url } of list) {
    const md = `[${label}](${url})`;
    if (url.length > MAX_BUTTON_URL || len + md.length + 3 > 350) continue;
    parts.push(md);
    len += md.length + 3;
  }
  return parts.join(' · ');
}

function signals(p: DigestPaper, l: DigestLabels): string {
  const bits = [
    p.hfUpvotes ? `▲ ${p.hfUpvotes} HF` : '',
    p.githubStars ? `★ ${p.githubStars} GitHub` : '',
    p.citations ? l.citedBy(p.citations) : '',
    p.votes ? l.votes(p.votes) : '',
    `GRPO ${p.familyScore.toFixed(2)}`,
    p.arxivId ? `arXiv ${p.arxivId}` : '',
  ];
  return bits.filter(Boolean).join(' · ');
}

function buttons(paperId: number, list: { label: string; url: string }[], l: DigestLabels): Button[] {
  const vote: Button = {
    kind: 'action',
    customId: CUSTOM_IDS.vote.encode({ paper: paperId }),
    label: fit(l.vote, LIMITS.buttonLabel),
    style: 'primary',
  };
  const linkButtons: Button[] = list
    .filter((x) => x.label !== 'Project page' && x.url.length <= MAX_BUTTON_URL)
    .slice(0, LIMITS.buttonsPerRow - 1)
    .map((x) => ({ kind: 'link', label: x.label === 'Hugging Face' ? 'HF' : l.linkName(x.label), url: x.url }));
  return [vote, ...linkButtons];
}
