/**
 * The GRPO family tree as a Graphviz graph (DOT text), laid out by src/services/render: one box per
 * algorithm (name, its defining paper's year, papers in the corpus, new this month), one arrow per
 * "builds on" relation, from the older algorithm to the one building on it. Pure.
 *
 * Left to right, so the algorithms building on GRPO stack in one column: about as tall as it is
 * wide, which a phone shows large enough to read. Background methods that are not families (PPO,
 * REINFORCE) are dashed boxes.
 *
 * Every arrow leaves its box on the right and enters the next on the left as straight segments
 * (`splines=polyline`), with room between the columns (`ranksep`): GRPO's arrows then fan out to
 * its column in the order of the boxes they reach. With curved splines and little room, dot bent
 * them into one braided bundle that no reader could follow (issue 27).
 */
import type { FamilyEntry } from '../papers/families.ts';
import { arxivIdMonth } from '../papers/identity.ts';
import { COLORS, FONT } from './theme.ts';

export interface TreeFamily {
  name: string;
  /** The year of its defining paper, when known. */
  year?: number;
  /** Papers in the corpus: its defining paper and those building on it. */
  total: number;
  /** Of those, papers that became news this month. */
  thisMonth: number;
  buildsOn: readonly string[];
}

export interface FamilyTreeInput {
  families: readonly TreeFamily[];
  /** Methods families build on that are not families themselves (PPO, REINFORCE), with their year. */
  background: Readonly<Record<string, number>>;
  /** The family to highlight with its direct descendants. */
  highlight?: string;
  /** "November 2026": what "this month" is. */
  month: string;
}

/** The tree's families from the data file and the corpus's counts (a family without a count has no papers). */
export function treeFamilies(
  entries: readonly FamilyEntry[],
  counts: ReadonlyMap<string, { total: number; thisMonth: number }>,
): TreeFamily[] {
  return entries.map((f) => {
    const month = f.defining.arxivId ? arxivIdMonth(f.defining.arxivId) : undefined;
    return {
      name: f.name,
      ...(month && { year: Number(month.slice(0, 4)) }),
      ...(counts.get(f.name) ?? { total: 0, thisMonth: 0 }),
      buildsOn: f.buildsOn,
    };
  });
}

/** Every "builds on" arrow of the tree, [from, to]: the tree's edges, one per relation. */
export function treeEdges(families: readonly Pick<TreeFamily, 'name' | 'buildsOn'>[]): [from: string, to: string][] {
  return families.flatMap((f) => [...new Set(f.buildsOn)].map((p): [string, string] => [p, f.name]));
}

/** The families building directly on `name`. */
export function childrenOf(families: readonly Pick<TreeFamily, 'name' | 'buildsOn'>[], name: string): string[] {
  return families.filter((f) => f.buildsOn.includes(name)).map((f) => f.name);
}

export function familyTreeDot(input: FamilyTreeInput): string {
  const { families, highlight } = input;
  const known = new Set(families.map((f) => f.name));
  const children = new Set(highlight ? childrenOf(families, highlight) : []);
  const edges = treeEdges(families);
  const background = [...new Set(edges.map(([from]) => from).filter((n) => !known.has(n)))];
  const lines = [
    'digraph family_tree {',
    `  graph [rankdir=LR bgcolor="${COLORS.background}" pad=0.15 nodesep=0.1 ranksep=0.7 splines=polyline fontname="${FONT}" fontsize=16 fontcolor="${COLORS.ink}" labelloc=t labeljust=l label=<${title(input)}>];`,
    `  node [shape=box style="rounded,filled" fontname="${FONT}" fontsize=15 fontcolor="${COLORS.ink}" color="${COLORS.line}" fillcolor="${COLORS.box}" penwidth=1.2 margin="0.07,0.04"];`,
    `  edge [tailport=e headport=w color="${COLORS.line}" arrowsize=0.7 penwidth=1.1];`,
    ...background.map((name) => {
      const year = input.background[name];
      return `  ${id(name)} [label=<<B>${html(name)}</B>${year ? `<BR/><FONT POINT-SIZE="13">${year}</FONT>` : ''}> style="rounded,dashed" fillcolor="${COLORS.background}"];`;
    }),
    ...families.map((f) => {
      const role = f.name === highlight ? 'asked' : children.has(f.name) ? 'child' : 'other';
      return `  ${id(f.name)} [label=<${nodeLabel(f, input.month, role === 'asked')}>${role === 'asked' ? ` fillcolor="${COLORS.accent}" fontcolor="${COLORS.accentInk}" color="${COLORS.accent}"` : ''}${role === 'child' ? ` fillcolor="${COLORS.accentSoft}" color="${COLORS.accent}"` : ''}];`;
    }),
    ...edges.map(
      ([from, to]) =>
        `  ${id(from)} -> ${id(to)}${from === highlight ? ` [color="${COLORS.accent}" penwidth=2.2]` : ''};`,
    ),
    '}',
  ];
  return lines.join('\n');
}

/** "GSPO", "2025 · 51 papers", and "+3 new in Nov" when some are new this month. */
function nodeLabel(f: TreeFamily, month: string, onAccent: boolean): string {
  const count = `${f.total} paper${f.total === 1 ? '' : 's'}`;
  const detail = [f.year, count].filter(Boolean).join(' · ');
  const fresh =
    f.thisMonth > 0
      ? `<BR/><FONT POINT-SIZE="13" COLOR="${onAccent ? COLORS.accentInk : COLORS.fresh}">+${f.thisMonth} new in ${html(month.slice(0, 3))}</FONT>`
      : '';
  return `<B>${html(f.name)}</B><BR/><FONT POINT-SIZE="13">${html(detail)}</FONT>${fresh}`;
}

/** The title and its legend; "+new in November 2026" only when some box says it (a key to nothing misleads). */
function title(input: FamilyTreeInput): string {
  const muted = (text: string) => `<FONT POINT-SIZE="13" COLOR="${COLORS.muted}">${text}</FONT>`;
  const fresh = input.families.some((f) => f.thisMonth > 0)
    ? `${muted(' · ')}<FONT POINT-SIZE="13" COLOR="${COLORS.fresh}">+new in ${html(input.month)}</FONT>`
    : '';
  const lines = [
    '<B>GRPO family tree</B>',
    `${muted('papers in the corpus')}${fresh}${muted(' · A → B: B builds on A')}`,
    ...(input.highlight
      ? [
          `<FONT POINT-SIZE="13" COLOR="${COLORS.accent}">${html(input.highlight)} and what builds on it are highlighted</FONT>`,
        ]
      : []),
  ];
  return lines.map((l) => `${l}<BR ALIGN="LEFT"/>`).join('');
}

/** A DOT identifier: always quoted, so any name is one. */
function id(name: string): string {
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Text inside a Graphviz HTML-like label. */
function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
