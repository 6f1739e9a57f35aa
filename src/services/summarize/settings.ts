import type { Db } from '../../../db/client.ts';
import { readableRulesSettings } from '../../../db/queries/paper-texts.ts';
import { summarySources } from '../../../db/queries/summaries.ts';
import { isSettingKey, type PaperSettings, type Setting } from '../../core/papers/settings.ts';
import { PROMPT_VERSION, summaryContent, type GrpoDelta } from './schema.ts';

/** What the bot knows of a paper's training: its settings with evidence, and its GRPO delta. */
export interface PaperTraining {
  settings: PaperSettings | null;
  delta: GrpoDelta | null;
}

/**
 * Per paper: the settings of its LLM summary written from the full text (English first, then
 * Chinese; values are English in both), else the rules extractor's from the stored text; and the
 * summary's GRPO delta. Every setting was checked against the text when it was stored.
 */
export async function trainingOf(db: Db, paperIds: readonly number[]): Promise<Map<number, PaperTraining>> {
  const [en, zh, rulesSettings] = await Promise.all([
    summarySources(db, paperIds, 'en', PROMPT_VERSION),
    summarySources(db, paperIds, 'zh', PROMPT_VERSION),
    readableRulesSettings(db, paperIds),
  ]);
  // Per paper, English rows first, then Chinese.
  const summariesOf = new Map<number, typeof en.summaries>();
  for (const row of [...en.summaries, ...zh.summaries]) {
    const rows = summariesOf.get(row.paperId);
    if (rows) rows.push(row);
    else summariesOf.set(row.paperId, [row]);
  }
  const out = new Map<number, PaperTraining>();
  for (const id of paperIds) {
    let settings: PaperSettings | null = null;
    let delta: GrpoDelta | null = null;
    for (const row of summariesOf.get(id) ?? []) {
      const parsed = summaryContent.safeParse(row.content);
      if (!parsed.success) continue;
      delta ??= parsed.data.grpo_delta;
      if (!settings && row.basis === 'full-text' && parsed.data.settings.length)
        settings = { source: 'llm', model: row.model, items: parsed.data.settings };
    }
    const rules = (rulesSettings.get(id) ?? []).filter((s): s is Setting => isSettingKey(s.key));
    if (!settings && rules.length) settings = { source: 'rules', model: null, items: rules };
    out.set(id, { settings, delta });
  }
  return out;
}

/** The same for one paper. */
export async function trainingOfPaper(db: Db, paperId: number): Promise<PaperTraining> {
  return (await trainingOf(db, [paperId])).get(paperId)!;
}
