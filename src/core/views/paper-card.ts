import type { PaperDetail } from '../../../db/queries/papers.ts';
import type { Note } from '../../../db/schema.ts';
import { fitEmbed, LIMITS, truncate, untrustedText, type Embed, type EmbedField, type Reply } from '../reply.ts';
import { cardRecipe } from '../papers/recipe.ts';
import type { PaperSettings } from '../papers/settings.ts';
import { byline, paperLinks } from '../papers/links.ts';
import { readable } from '../papers/latex.ts';
import { paperDate } from '../papers/date.ts';
import { compactDelta } from '../digest/delta.ts';
import { labelsFor } from '../digest/labels.ts';
import { recipeField, settingsField, trainingButtons } from './training.ts';
import { familyReasons } from '../papers/classify.ts';
import { citedByText } from '../papers/citation-counts.ts';

/**
 * The paper card: title linked to arXiv, byline, date, families and topics (plus families it builds on by citation), the abstract, the repaired
 * Chinese note, citing papers, and link buttons. Sized to fit one Discord message (6,000 characters).
 */
export function paperCardReply(
  d: PaperDetail,
  opts: { buildsOn?: string[]; cites?: string[]; summary?: CardSummary; settings?: PaperSettings | null } = {},
): Reply {
  const p = d.paper;
  const links = paperLinks(p);
  const by = byline(p);
  const header = [
    p.titleZh && untrustedText(p.titleZh),
    by && untrustedText(by),
    [p.arxivId && `arXiv ${p.arxivId}${p.arxivVersion ? `v${p.arxivVersion}` : ''}`, paperDate(p) ?? 'date unknown']
      .filter(Boolean)
      .join(' · '),
  ].filter(Boolean);
  const description = [
    ...header,
    '',
    truncate(p.abstract ? untrustedText(readable(p.abstract)) : '(no abstract stored)', 1500),
  ].join('\n');
  const fields: EmbedField[] = [];
  // A new arXiv version compared with the one before (jobs/diff-versions.ts): what changed, or "wording only".
  if (d.versionNote) fields.push({ name: 'Latest version', value: truncate(untrustedText(d.versionNote), 1024) });
  if (opts.summary) fields.push(...summaryFields(opts.summary));
  // Out of the family (a moderator's mark or the judge): no family tag at all, whatever the filter named.
  const tagged = p.grpoFamily ? p.families : [];
  // A paper in the family that names no variant (an RL recipe) still says so, as /paper random calls it.
  const families = tagged.length ? tagged : p.grpoFamily ? ['GRPO family (no variant named)'] : [];
  if (families.length || p.topics.length) {
    fields.push({
      name: 'Families · topics',
      value: truncate([...families, ...p.topics.map((t) => `#${t}`)].join(' · '), 1024),
    });
  }
  const why = familyWhy(p, tagged);
  if (why) fields.push({ name: 'Why these families', value: why });
  // Families its LLM summary shows it changes (GRPO axes), and families whose defining paper it only cites.
  const derived = (opts.buildsOn ?? []).filter((f) => !tagged.includes(f));
  if (derived.length)
    fields.push({
      name: 'Also builds on',
      value: truncate(`${derived.join(' · ')} (its LLM summary changes a GRPO axis)`, 1024),
    });
  const cited = (opts.cites ?? []).filter((f) => !tagged.includes(f));
  if (cited.length)
    fields.push({
      name: 'Cites the defining paper of',
      value: truncate(`${cited.join(' · ')} (a citation, not membership)`, 1024),
    });
  const decision = familyDecision(d);
  if (decision) fields.push({ name: 'GRPO family', value: decision });
  const signals = [
    p.hfUpvotes ? `▲ ${p.hfUpvotes} on HF` : '',
    p.githubStars ? `★ ${p.githubStars} on GitHub` : '',
    d.citationCounts ? `${citedByText(d.citationCounts)} (Semantic Scholar)` : '',
  ].filter(Boolean);
  if (signals.length) fields.push({ name: 'Signals', value: signals.join(' · '), inline: true });
  fields.push({ name: 'Links', value: links.list.map((l) => `[${l.label}](${l.url})`).join(' · '), inline: true });
  // A family paper's training: its settings (quoted on demand) and a TRL recipe from them and its family.
  const settings = opts.settings ?? null;
  if (settings?.items.length) fields.push(settingsField(settings));
  // A recipe only where the paper or a family it truly belongs to backs it (recipe.ts `cardRecipe`).
  const recipe = cardRecipe(p, settings?.items ?? []);
  const recipeShown = recipeField(recipe);
  if (recipeShown) fields.push(recipeShown);
  const note = d.notes.find((n) => n.lang === 'zh');
  if (note) fields.push(...noteFields(note));
  if (d.citingCount > 0) {
    const lines = d.citing.map(
      (c) => `• ${c.arxivId ? `\`${c.arxivId}\` ` : ''}${truncate(untrustedText(readable(c.title)), 110)}`,
    );
    const more = d.citingCount > d.citing.length ? `\n…and ${d.citingCount - d.citing.length} more` : '';
    fields.push({
      name: `Cited by ${d.citingCount} paper${d.citingCount === 1 ? '' : 's'} in the corpus`,
      value: truncate(lines.join('\n'), 1000) + more,
    });
  }
  const embed: Embed = {
    title: truncate(untrustedText(readable(p.title)), LIMITS.title),
    url: links.main,
    description,
    fields,
  };
  return {
    embeds: [fitEmbed(embed)],
    components: [
      links.list.slice(0, LIMITS.buttonsPerRow).map((l) => ({ kind: 'link' as const, label: l.label, url: l.url })),
      ...(p.grpoFamily && (recipeShown || settings?.items.length)
        ? [trainingButtons(p.id, settings, Boolean(recipeShown))]
        : []),
    ],
  };
}

/**
 * Each family tag with the phrase of the abstract that decided it (roles.ts), or who named it when the
 * rules did not (the LLM judge).
 */
function familyWhy(p: PaperDetail['paper'], tagged: readonly string[]): string | undefined {
  if (!tagged.length) return undefined;
  const reasons = new Map(familyReasons({ title: p.title, abstract: p.abstract }).map((r) => [r.family, r.reason]));
  const lines = tagged.map(
    (f) =>
      `**${f}**: ${untrustedText(truncate(reasons.get(f) ?? 'named by the LLM judge', 1000 / tagged.length - 10))}`,
  );
  return truncate(lines.join('\n'), 1024);
}

/** Who decided the paper is in or out of the family, when it was more than the filter: a moderator's mark, or the LLM judge. */
function familyDecision(d: PaperDetail): string | undefined {
  if (d.mark) {
    const who = d.mark.setByName ? untrustedText(d.mark.setByName) : 'a moderator';
    const why = d.mark.reason ? `: ${untrustedText(d.mark.reason)}` : '';
    return truncate(
      `${d.mark.inFamily ? 'In' : 'Out'}, marked by ${who} on ${d.mark.setAt.toISOString().slice(0, 10)}${why}`,
      1024,
    );
  }
  if (d.judgement && d.judgement.inFamily !== null) {
    const why = d.judgement.reason ? `: ${untrustedText(d.judgement.reason)}` : '';
    return truncate(
      `${d.judgement.inFamily ? 'In' : 'Out'}, decided by the LLM judge (${d.judgement.model ?? 'model'})${why}`,
      1024,
    );
  }
  return undefined;
}

/** An LLM summary as the card shows it (what src/services/summarize/show.ts chose, when it is LLM-written). */
export interface CardSummary {
  tldr: string;
  grpoDelta: Record<string, string> | null;
  model: string | null;
}

/** The LLM summary first: its TL;DR (labelled with the model that wrote it) and what it changes relative to GRPO. */
function summaryFields(s: CardSummary): EmbedField[] {
  const fields: EmbedField[] = [
    {
      name: `TL;DR (LLM summary${s.model ? `, ${s.model}` : ''})`,
      value: truncate(untrustedText(readable(s.tldr)), 600),
    },
  ];
  const labels = labelsFor('en');
  const delta = compactDelta(s.grpoDelta ?? undefined, labels.deltaAxes, { max: 400 });
  if (delta) fields.push({ name: labels.delta, value: untrustedText(delta) });
  return fields;
}

/**
 * What the mojibake repair could not vouch for, as its own field (a line appended to a long section
 * would be cut off by the field limit): characters it could not restore, and characters whose choice
 * between candidates was a close call, so a note is never presented as clean when it is not.
 */
export function repairNotice(n: Pick<Note, 'unresolvedChars' | 'uncertainChars'>): string {
  return [
    n.unresolvedChars > 0 ? `${n.unresolvedChars} 个字符无法修复，以 � 标出` : '',
    n.uncertainChars > 0 ? `修复不确定：${n.uncertainChars} 个字符由上下文推断，可能有误` : '',
  ]
    .filter((line) => line !== '')
    .join('；');
}

/** The structured Chinese note as fields: its heading, motivation, method points, results, takeaways. */
function noteFields(n: Note): EmbedField[] {
  const method = n.method.map((m, i) => `${i + 1}. ${m}`).join('\n');
  const parts: [string, string][] = [
    ['论文解读', n.heading],
    ['背景痛点 / 本文动机', n.motivation],
    ['核心方法', method],
    ['实验结果', n.results],
    ['可借鉴之处', n.takeaways],
    ['编码修复', repairNotice(n)],
  ];
  return parts.filter(([, v]) => v.trim()).map(([name, value]) => ({ name, value: truncate(value.trim(), 500) }));
}
