import { CUSTOM_IDS } from '../custom-id.ts';
import { cardRecipe, recipeCode, type CardRecipe, type RecipePaper } from '../papers/recipe.ts';
import { TRL_DOC_VERSION } from '../papers/families.ts';
import { SETTING_INFO, type PaperSettings } from '../papers/settings.ts';
import { LIMITS, truncate, untrustedText, type Button, type EmbedField, type Reply } from '../reply.ts';

/**
 * How a paper trained, as the paper card, the Reproduce and Evidence buttons and /compare show it:
 * its settings (each quoted from the paper, on demand), and a TRL recipe built from them. Pure.
 */

const safe = (s: string) => untrustedText(s);
const sourceLabel = (s: PaperSettings) =>
  s.source === 'llm'
    ? `read from the full text by ${s.model ?? 'the LLM'}`
    : 'found in the full text by rules (no LLM)';

/** "Group size: 16" lines, for the card. */
export function settingsField(s: PaperSettings): EmbedField {
  const lines = s.items.map((x) => `${SETTING_INFO[x.key].label}: ${truncate(safe(x.value), 90)}`);
  return {
    name: 'Training settings',
    value: truncate(`${lines.join('\n')}\n-# ${sourceLabel(s)}; quotes under Evidence`, LIMITS.fieldValue),
  };
}

/** The code a card recipe shows: the GRPOConfig arguments, or the family's trainer lines when it has no arguments (never an empty config). */
function codeOf(c: Extract<CardRecipe, { kind: 'paper' | 'family' }>, comments = false): string {
  if (c.recipe.args.length > 0) return recipeCode(c.recipe, { comments });
  return c.kind === 'family' ? c.trainer.join('\n') : '';
}

/** The one sentence that says whose recipe it is. */
function basisOf(c: Extract<CardRecipe, { kind: 'paper' | 'family' | 'unsupported' }>): string {
  if (c.kind === 'paper')
    return c.recipe.family
      ? `From the paper's stated settings; arguments it does not state come from ${c.recipe.family}'s TRL entry (a family it belongs to) and are marked so.`
      : "From the paper's stated settings only (it names no family whose TRL entry could fill the rest).";
  if (c.kind === 'family')
    return `No settings stated; the closest family recipe is ${c.family}'s (the paper is a ${c.family} paper), not the paper's own:`;
  return `No settings stated, and TRL has no form of ${c.family} (a family the paper belongs to).`;
}

/** What a card may claim about reproducing the paper (recipe.ts `cardRecipe`), or nothing. */
export function recipeField(c: CardRecipe): EmbedField | undefined {
  if (c.kind === 'none') return undefined;
  const gaps = c.kind === 'unsupported' ? c.missing : c.recipe.cannot;
  const gapLine = gaps.length ? `\nTRL cannot express: ${truncate(gaps.join('; '), 200)}` : '';
  const code = c.kind === 'unsupported' ? '' : codeOf(c);
  const block = code ? `\n\`\`\`py\n${truncate(code, 700)}\n\`\`\`` : '';
  return {
    name: `Reproduce with TRL ${TRL_DOC_VERSION}`,
    value: truncate(`${basisOf(c)}${block}${gapLine}`, LIMITS.fieldValue),
  };
}

/** The card's second row: Reproduce (when the card has a recipe to expand) and, with settings, Evidence. */
export function trainingButtons(paperId: number, settings: PaperSettings | null, withRecipe = true): Button[] {
  return [
    ...(withRecipe
      ? [
          {
            kind: 'action' as const,
            customId: CUSTOM_IDS.paperRecipe.encode({ paper: paperId }),
            label: 'Reproduce',
            style: 'primary' as const,
          },
        ]
      : []),
    ...(settings?.items.length
      ? [
          {
            kind: 'action' as const,
            customId: CUSTOM_IDS.paperEvidence.encode({ paper: paperId }),
            label: 'Evidence',
            style: 'secondary' as const,
          },
        ]
      : []),
  ];
}

/** What the training views show of a paper. */
interface TrainedPaper {
  arxivId: string | null;
  title: string;
}

/** The Reproduce button's answer: the card's recipe with a comment per argument, the paper's notes, and TRL's gaps for this paper. */
export function recipeReply(p: TrainedPaper & RecipePaper, settings: PaperSettings | null): Reply {
  const c = cardRecipe(p, settings?.items ?? []);
  if (c.kind === 'none')
    return { content: `No TRL recipe for ${truncate(safe(p.title), 150)}: ${c.why}.`, ephemeral: true };
  const code = c.kind === 'unsupported' ? '' : codeOf(c, true);
  const gaps = c.kind === 'unsupported' ? c.missing : c.recipe.cannot;
  const lines = [
    `**Reproduce ${truncate(safe(p.title), 150)} with TRL ${TRL_DOC_VERSION}**${c.kind === 'unsupported' ? '' : ` (${c.recipe.trainer})`}`,
    c.kind === 'paper' && settings ? `${basisOf(c)} Settings ${sourceLabel(settings)}.` : basisOf(c),
    code ? `\`\`\`py\n${truncate(code, 1100)}\n\`\`\`` : '',
    ...(c.kind === 'unsupported' ? [] : c.recipe.notes.map((n) => `• ${truncate(safe(n), 200)}`)),
    gaps.length ? `**TRL cannot express:** ${truncate(safe(gaps.join('; ')), 400)}` : '',
    'Check each argument against your TRL version: options are renamed between releases.',
  ].filter(Boolean);
  return { content: truncate(lines.join('\n'), LIMITS.content), ephemeral: true };
}

/** The Evidence button's answer: each setting with the sentence or table row of the paper that states it. */
export function evidenceReply(p: TrainedPaper, settings: PaperSettings | null): Reply {
  if (!settings?.items.length)
    return {
      content: `No training settings are known for ${p.arxivId ?? 'this paper'} yet (its full text is not read, or states none).`,
      ephemeral: true,
    };
  const lines = settings.items.map(
    (x) => `**${SETTING_INFO[x.key].label}: ${truncate(safe(x.value), 80)}**\n> ${truncate(safe(x.evidence), 300)}`,
  );
  return {
    content: truncate(
      [`Settings of ${truncate(safe(p.title), 120)}, ${sourceLabel(settings)}:`, ...lines].join('\n'),
      LIMITS.content,
    ),
    ephemeral: true,
  };
}
