import type { Command } from '../src/core/command.ts';
import { botStatusReply } from '../src/core/views/bot-status.ts';
import { listFeedStates } from '../db/queries/feed-state.ts';
import { lastJobRuns } from '../db/queries/job-runs.ts';
import { digestChannelCounts, digestMessagesSent, grpoFamilyCount, papersNewSince } from '../db/queries/status.ts';
import { spendToday } from '../db/queries/spend.ts';
import { failedSummaryCounts } from '../db/queries/summaries.ts';
import { textCounts } from '../db/queries/paper-texts.ts';
import { citationCoverage } from '../db/queries/citation-counts.ts';
import { PROMPT_VERSION } from '../src/services/summarize/schema.ts';

const utcMidnight = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** `/status`: is the bot healthy? Feeds, polls, today's papers, summaries, full texts, LLM spend, citations and digests. */
export const status: Command = {
  definition: { name: 'status', description: "Health of the feeds, polls, today's papers, LLM spend and digests" },
  async execute(_input, deps) {
    const now = deps.now();
    const today = utcMidnight(now);
    const [
      feeds,
      [lastPoll],
      [lastSummaries],
      failedSummaries,
      texts,
      papersToday,
      spendUsd,
      digests,
      channels,
      familyTotal,
      citationCounts,
      [lastCitations],
    ] = await Promise.all([
      listFeedStates(deps.db),
      lastJobRuns(deps.db, 'poll-feeds', 1),
      lastJobRuns(deps.db, 'summarize-pending', 1),
      failedSummaryCounts(deps.db, PROMPT_VERSION),
      textCounts(deps.db),
      papersNewSince(deps.db, today),
      spendToday(deps.db, now),
      digestMessagesSent(deps.db, today),
      digestChannelCounts(deps.db),
      grpoFamilyCount(deps.db),
      citationCoverage(deps.db),
      lastJobRuns(deps.db, 'refresh-citations', 1),
    ]);
    return botStatusReply({
      feeds,
      lastPoll,
      lastSummaries,
      failedSummaries,
      texts,
      familyTotal,
      papersToday,
      spendUsd,
      digests,
      channels,
      nextPoll: deps.nextRuns ? (deps.nextRuns()['poll-feeds'] ?? null) : undefined,
      pollCron: deps.config.pollCron,
      budgetUsd: deps.config.llm.dailyBudgetUsd,
      llmConfigured: Boolean(deps.config.anthropic.apiKey),
      citations: {
        ...citationCounts,
        ...(lastCitations && { lastRun: lastCitations }),
        keyed: Boolean(deps.config.semanticScholar.apiKey),
      },
    });
  },
};
