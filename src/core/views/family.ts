import type { FamilyMemberRow } from '../../../db/queries/families.ts';
import type { PaperSummaryRow } from '../../../db/queries/papers.ts';
import type { Paper } from '../../../db/schema.ts';
import { arxivAbsUrl } from '../papers/identity.ts';
import { TRL_CHECKED_ON, TRL_DOC_VERSION, type FamilyEntry } from '../papers/families.ts';
import { LIMITS, truncate, type Embed, type EmbedField, type Reply, type ReplyFile } from '../reply.ts';
import { linkTitle, paperLinks } from '../papers/links.ts';
import { pagerRow } from './pager.ts';
import { paperDate } from '../papers/date.ts';

export const FAMILY_PAGE_SIZE = 10;

const SUPPORT = { native: 'supported', partial: 'partly supported', none: 'not supported' } as const;

export interface FamilyPage {
  rows: FamilyMemberRow[];
  total: number;
  page: number;
}

/**
 * `/family show`: the family (description, defining paper, what it builds on, TRL recipe), one page of
 * its members with Previous/Next when there is more than one page, and apart the papers that only cite
 * its defining paper (never counted as members); the family tree with this family highlighted (`tree`)
 * is the first embed's picture.
 */
export function familyReply(
  f: FamilyEntry,
  defining: Paper | undefined,
  page: FamilyPage,
  citers: { rows: PaperSummaryRow[]; total: number },
  idFor: (page: number) => string,
  tree?: ReplyFile,
): Reply {
  const pages = Math.max(1, Math.ceil(page.total / FAMILY_PAGE_SIZE));
  const reply: Reply = {
    embeds: [
      { ...familyEmbed(f, defining), ...(tree && { image: tree.name }) },
      membersEmbed(f, page, pages),
      ...(citers.total ? [citersEmbed(f, citers)] : []),
    ],
  };
  if (tree) reply.files = [tree];
  if (pages > 1) reply.components = [pagerRow(idFor, page.page, page.page < pages)];
  return reply;
}

function familyEmbed(f: FamilyEntry, defining: Paper | undefined): Embed {
  const d = f.defining;
  const url = d.arxivId ? arxivAbsUrl(d.arxivId) : undefined;
  const title = url ? `[${d.title}](${url})` : d.title;
  const stored = defining ? ` · in the corpus: \`/paper show id:${d.arxivId}\`` : ' · not in the corpus';
  const unchecked = d.idCheck === 'recalled' ? ' · arXiv id from memory, not yet checked against arXiv' : '';
  const fields: EmbedField[] = [
    {
      name: 'Defining paper',
      value: truncate(`${title}${d.arxivId ? ` (arXiv ${d.arxivId})` : ''}${stored}${unchecked}`, LIMITS.fieldValue),
    },
  ];
  if (f.buildsOn.length) fields.push({ name: 'Builds on', value: f.buildsOn.join(' · '), inline: true });
  fields.push(...trlFields(f));
  return {
    title: truncate(f.name, LIMITS.title),
    ...(url && { url }),
    description: truncate(f.description, LIMITS.description),
    fields,
    footer: `TRL settings checked against TRL ${TRL_DOC_VERSION}'s documentation on ${TRL_CHECKED_ON}; each names the first version that has it. TRL changes defaults between versions: check yours.`,
  };
}

/** The reproduction table: one line per setting with the versions it applies to, then what TRL lacks. */
function trlFields(f: FamilyEntry): EmbedField[] {
  const lines = f.trl.settings.map((s) => `• \`${s.setting}\` — ${s.what} _(${s.since})_`);
  const missing = f.trl.missing.map((m) => `✗ ${m}`);
  const value =
    [...lines, ...missing].join('\n') || (f.trl.support === 'none' ? '✗ No TRL trainer or setting expresses it.' : '—');
  return [{ name: `Reproduce with TRL: ${SUPPORT[f.trl.support]}`, value: truncate(value, LIMITS.fieldValue) }];
}

function membersEmbed(f: FamilyEntry, page: FamilyPage, pages: number): Embed {
  if (page.total === 0) {
    return {
      title: `Members of ${f.name}`,
      description:
        'No paper in the corpus besides its defining paper proposes a variant of it or trains with it yet (citing the defining paper does not make a paper a member).',
    };
  }
  const start = (page.page - 1) * FAMILY_PAGE_SIZE;
  const perEntry = Math.floor((LIMITS.description - 50) / Math.max(page.rows.length, 1));
  const lines = page.rows.map((p, i) => truncate(memberLine(p, start + i + 1), perEntry));
  const shown = page.rows.length ? `${start + 1}-${start + page.rows.length}` : 'none';
  return {
    title: truncate(`Members of ${f.name} (${page.total})`, LIMITS.title),
    description: lines.join('\n') || 'No papers on this page.',
    footer: `Papers ${shown} of ${page.total} · page ${page.page}/${pages} · newest first · a member proposes a variant of ${f.name} or trains with it (named = the abstract says so, the reason is on its card${f.name === 'GRPO' ? '; delta = its LLM summary changes a GRPO axis' : ''}; cites = it also cites the defining paper)`,
  };
}

function memberLine(p: FamilyMemberRow, n: number): string {
  const why = [p.named && 'named', p.cites && 'cites', p.delta && 'delta'].filter(Boolean).join('+');
  const signals = [p.votes ? `🗳 ${p.votes}` : '', p.hfUpvotes ? `▲ ${p.hfUpvotes}` : ''].filter(Boolean);
  const meta = [p.arxivId && `\`${p.arxivId}\``, paperDate(p), ...signals, why].filter(Boolean).join(' · ');
  return `${n}. [${truncate(linkTitle(p.title), 150)}](${paperLinks(p).main}) — ${meta}`;
}

/** The papers that cite the defining paper without being members: the newest few, and how many. */
function citersEmbed(f: FamilyEntry, citers: { rows: PaperSummaryRow[]; total: number }): Embed {
  const lines = citers.rows.map((p) => {
    const meta = [p.arxivId && `\`${p.arxivId}\``, paperDate(p)].filter(Boolean).join(' · ');
    return `• [${truncate(linkTitle(p.title), 110)}](${paperLinks(p).main})${meta ? ` — ${meta}` : ''}`;
  });
  const more = citers.total > citers.rows.length ? `\n…and ${citers.total - citers.rows.length} more` : '';
  return {
    title: truncate(`Papers that cite the defining paper of ${f.name} (${citers.total})`, LIMITS.title),
    description: truncate(lines.join('\n'), 1800) + more,
    footer: `Not members: they cite ${f.defining.title.slice(0, 80)}, for background or as a baseline. Not counted as ${f.name}'s members.`,
  };
}

/** `/family list`: the GRPO family's size (the one count every command gives), then each algorithm's members and, apart, its citers. */
export function familyListReply(
  rows: { entry: FamilyEntry; total: number; thisMonth: number; citing: number }[],
  monthLabel: string,
  familyTotal: number,
): Reply {
  const lines = rows.map(
    ({ entry, total, thisMonth, citing }) =>
      `**${entry.name}** · ${total} member${total === 1 ? '' : 's'}${thisMonth ? ` (${thisMonth} new in ${monthLabel})` : ''}${citing ? ` · ${citing} more cite it` : ''} · TRL: ${SUPPORT[entry.trl.support]}`,
  );
  const head = `**${familyTotal} papers in the GRPO family** (the count /topics, /status, /trends and the poll give). Below, each algorithm's members among them: its defining paper and the papers that propose a variant of it or train with it; a paper can be in several, and many name no algorithm as their own.\n`;
  return {
    embeds: [
      {
        title: 'GRPO family tree',
        description: truncate(`${head}\n${lines.join('\n')}`, LIMITS.description),
        footer: `"cite it" = other papers citing the defining paper, not members. "New" = announced by a feed in ${monthLabel} (UTC); imported papers are not new. /family show name:<family> for details.`,
      },
    ],
  };
}
