import { CUSTOM_IDS } from '../custom-id.ts';
import { recipeCode, trlRecipe, type Recipe } from '../papers/recipe.ts';
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

/** The recipe in a few lines, for the card. */
export function recipeField(r: Recipe): EmbedField {
  const code = truncate(recipeCode(r), 700);
  const gaps = r.cannot.length ? `\nTRL cannot express: ${truncate(r.cannot.join('; '), 200)}` : '';
  return {
    name: `Reproduce with TRL ${r.trlVersion}`,
    value: truncate(`\`\`\`py\n${code}\n\`\`\`${gaps}`, LIMITS.fieldValue),
  };
}

/** The card's second row: Reproduce and, with settings, Evidence. */
export function trainingButtons(paperId: number, settings: PaperSettings | null): Button[] {
  return [
    {
      kind: 'action',
      customId: CUSTOM_IDS.paperRecipe.encode({ paper: paperId }),
      label: 'Reproduce',
      style: 'primary',
    },
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

/** The Reproduce button's answer: the whole recipe with a comment per argument, the paper's quotes, and TRL's gaps. */
/** What the training views show of a paper. */
interface TrainedPaper {
  arxivId: string | null;
  title: string;
}

export function recipeReply(p: TrainedPaper & { families: string[] }, settings: PaperSettings | null): Reply {
  const r = trlRecipe(settings?.items ?? [], p.families);
  const basis = settings?.items.length
    ? `From the paper's settings (${sourceLabel(settings)}) and ${r.family ? `${r.family}'s` : "GRPO's"} TRL entry.`
    : `The paper states no settings the bot could read${p.arxivId ? ' (no full text yet, or none stated)' : ''}: this is ${r.family ? `${r.family}'s` : "GRPO's"} TRL entry alone.`;
  const lines = [
    `**Reproduce ${truncate(safe(p.title), 150)} with TRL ${r.trlVersion}** (${r.trainer})`,
    basis,
    `\`\`\`py\n${truncate(recipeCode(r, { comments: true }), 1100)}\n\`\`\``,
    ...r.notes.map((n) => `• ${truncate(safe(n), 200)}`),
    r.cannot.length ? `**TRL cannot express:** ${truncate(safe(r.cannot.join('; ')), 400)}` : '',
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
