/**
 * `/family tree`: the family tree as a picture, with the same tree as text for screen readers and
 * for when the picture could not be drawn: one line per family (year, papers, new this month, what
 * it builds on). Pure; the picture is drawn by the command.
 */
import { childrenOf, treeEdges, type TreeFamily } from '../pictures/family-tree.ts';
import { LIMITS, truncate, type Reply, type ReplyFile } from '../reply.ts';

export interface FamilyTreeView {
  families: readonly TreeFamily[];
  /** The family asked for, highlighted. */
  highlight?: string;
  /** "November 2026". */
  month: string;
  /** The drawn tree; absent when drawing failed. */
  file?: ReplyFile;
}

/** The picture's file name: `family-tree.png`, or `family-tree-<slug>.png` with a family highlighted. */
export function familyTreeFileName(slug?: string): string {
  return slug ? `family-tree-${slug}.png` : 'family-tree.png';
}

/** What the picture shows, in words (its alt text). */
export function familyTreeAlt(families: readonly TreeFamily[], highlight?: string): string {
  const edges = treeEdges(families);
  const base = `The GRPO family tree: ${families.length} algorithms as boxes (name, year of the defining paper, papers in the corpus), with ${edges.length} arrows from each algorithm to those that build on it.`;
  if (!highlight) return base;
  const f = families.find((x) => x.name === highlight);
  const children = childrenOf(families, highlight);
  return `${base} ${highlight} is highlighted: it builds on ${f?.buildsOn.join(' and ') || 'no earlier method'}, and ${children.length ? `${children.join(', ')} build${children.length === 1 ? 's' : ''} on it` : 'nothing in the tree builds on it yet'}.`;
}

export function familyTreeReply(v: FamilyTreeView): Reply {
  const lines = v.families.map((f) => {
    const name = f.name === v.highlight ? `**${f.name}** ◀` : `**${f.name}**`;
    const fresh = f.thisMonth ? ` (+${f.thisMonth} new)` : '';
    const parents = f.buildsOn.length ? ` · builds on ${f.buildsOn.join(', ')}` : '';
    return `${name}${f.year ? ` ${f.year}` : ''} · ${f.total} member${f.total === 1 ? '' : 's'}${fresh}${parents}`;
  });
  const fresh = v.families.some((f) => f.thisMonth > 0);
  return {
    embeds: [
      {
        title: v.highlight ? `GRPO family tree: ${v.highlight}` : 'GRPO family tree',
        description: truncate(lines.join('\n'), LIMITS.description),
        ...(v.file && { image: v.file.name }),
        footer: `Members in the corpus per family (its defining paper and the papers that propose a variant of it or train with it; papers that only cite it are not counted); ${fresh ? `"new" = announced in ${v.month} (UTC)` : `no member announced in ${v.month} (UTC) yet`}. ${v.file ? '' : 'The picture could not be drawn this time; the list says the same. '}/family show name:<family> for one family.`,
      },
    ],
    ...(v.file && { files: [v.file] }),
  };
}
