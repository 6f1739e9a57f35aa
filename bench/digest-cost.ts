/**
 * Cost per digest: LLM calls and tokens for a day of 30 new GRPO-family papers delivered to 100
 * channels (50 English, 50 Chinese, a dozen time zones, all due now). On a fresh database each
 * variant runs the real `summarizePending` (the real Anthropic SDK, pointed at the local fake API of
 * test/helpers/fake-anthropic-server.ts), then `postDigests` with the real composer for every
 * channel through a recording poster, then `summarizePending` again; the fake counts every request.
 *
 * Token counts are the fake's, synthetic but proportional to the text: input = ceil(characters of
 * system + user prompt / 3.5), output = ceil(characters of the answer JSON / 3.5), with answers of a
 * realistic length per language. Costs are those counts at the model's list price (src/services/llm/pricing.ts).
 *
 *   npx tsx bench/digest-cost.ts [--json]
 */
import pino from 'pino';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sql as raw } from 'drizzle-orm';
import { channels, papers } from '../db/schema.ts';
import type { JobDeps } from '../jobs/index.ts';
import { composeChannelDigest } from '../src/services/outbox/channel-digest.ts';
import { deliverDigests } from '../src/services/outbox/deliver.ts';
import { buildDeps } from '../src/app.ts';
import { summarizePending } from '../jobs/summarize-pending.ts';
import { loadConfig } from '../src/core/config.ts';
import type { Poster } from '../src/core/delivery/poster.ts';
import { localClock } from '../src/core/delivery/schedule.ts';
import { classifyPaper } from '../src/core/papers/classify.ts';
import { titleKey } from '../src/core/papers/identity.ts';
import { costUsd, estimateRequestUsd, priceFor, promptChars, type TokenUsage } from '../src/services/llm/pricing.ts';
import { SYSTEM_PROMPT, summaryRequest, type SummaryInput } from '../src/services/summarize/prompt.ts';
import { startFakeAnthropicServer, type FakeAnthropic } from '../test/helpers/fake-anthropic-server.ts';
import { rng } from './corpus.ts';
import { startBenchServer, type BenchServer } from './pg.ts';
import { round } from './stats.ts';

/** 2026-11-21, 12:00 UTC: after the 06:15 poll and the 06:45 summaries, every channel's post time has passed. */
const NOW = new Date('2026-11-21T12:00:00Z');
const NEWS_AT = new Date('2026-11-21T06:20:00Z');
const PAPERS = 30;
const CHANNELS = 100;
const ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Moscow',
  'Asia/Kolkata',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Pacific/Auckland',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Pacific/Honolulu',
];
const TOPIC_CHOICES = [
  ['algorithm'],
  ['reasoning'],
  ['multimodal'],
  ['agents'],
  ['code'],
  ['efficiency'],
  ['reward'],
  ['algorithm', 'reasoning'],
];

export interface VariantResult {
  variant: 'direct' | 'batch';
  /** Model calls made (POST /v1/messages, plus requests inside a batch). */
  modelCalls: number;
  /** Every HTTP request the fake received (batch create, polls and results included). */
  httpRequests: number;
  /** Model calls after `postDigests` for all channels, and after a second `summarizePending`. */
  callsAfterDigests: number | null;
  callsAfterSecondRun: number;
  secondRunPending: number;
  summaries: { ok: number; failed: number };
  tokens: TokenUsage;
  byLang: Record<string, { calls: number; input: number; output: number; costUsd: number }>;
  /** Sum of the stored per-summary costs (each rounded to 6 decimals). */
  storedCostUsd: number;
  /** The token totals at list price (batch price for the batch variant). */
  listCostUsd: number;
  costPerChannelUsd: number;
  costPerPaperUsd: number;
  /** What the budget reserves before the calls (its conservative estimate), summed. */
  budgetEstimateUsd: number;
  summarizeMs: number;
}

export interface DigestCostResult {
  date: string;
  model: string;
  price: { input: number; output: number };
  papers: number;
  abstractChars: { min: number; max: number; mean: number };
  classifiedFamily: number;
  channels: { total: number; en: number; zh: number; zones: number };
  systemPromptChars: number;
  systemPromptTokens: number;
  minCacheableTokens: number;
  promptCharsPerCall: { min: number; max: number; mean: number };
  answerChars: { en: number; zh: number };
  direct: VariantResult;
  batch: VariantResult;
  delivery: {
    planned: number;
    messages: number;
    channelsPosted: number;
    /** Channels that got only a quiet-day notice (no paper in their topics and score range). */
    noticeOnly: number;
    papersShown: number;
    /** Distinct (paper, language) pairs shown, and how many of them with an LLM summary (not a fallback). */
    shownPairs: number;
    shownWithLlmSummary: number;
    ms: number;
    perChannelMs: number;
    /** The composer alone over the database (load + compose, no outbox writes), all channels, warm, after the timed run. */
    composeOnlyMs: number;
    secondRunPlanned: number;
  };
}

/** Thirty plausible GRPO-family titles (family, what changes, and the domain). */
const TITLES = [
  'DAPO-Lite: Decoupled Clipping and Dynamic Sampling at a Tenth of the Rollout Budget',
  'Sequence-Level Importance Ratios Stabilize GRPO Training of Mixture-of-Experts Models',
  'Rethinking Advantage Normalization in Group Relative Policy Optimization',
  'Dr. GRPO Revisited: Length Bias, Token-Level Loss Aggregation and What Actually Matters',
  'Entropy-Regularized GRPO for Long-Horizon Mathematical Reasoning',
  'Verifiable Rewards for Code: Unit-Test Feedback with Group Relative Policy Optimization',
  'GSPO for Vision-Language Models: Sequence-Level Clipping for Multimodal Reasoning',
  'When All Rollouts Agree: Resampling Zero-Variance Groups in RLVR',
  'KL-Free Reinforcement Learning with Verifiable Rewards Scales to 32B Parameters',
  'Curriculum Sampling for GRPO: Learning from Problems at the Edge of Competence',
  'Process Rewards Meet GRPO: Step-Level Verification for Theorem Proving',
  'RLOO versus GRPO under a Fixed Compute Budget: A Controlled Comparison',
  'Asymmetric Clipping Ranges Prevent Entropy Collapse in RL Fine-Tuning of LLMs',
  'Group Relative Policy Optimization for Tool-Using Search Agents',
  'Off-Policy GRPO: Reusing Stale Rollouts with Truncated Importance Weights',
  'REINFORCE++ with Global Advantage Normalization for Reasoning Models',
  'Length-Aware Rewards Shorten Chains of Thought without Hurting Accuracy in GRPO',
  'GRPO for Small Language Models: Lessons from Training 0.5B to 3B Reasoners',
  'Multi-Turn GRPO: Credit Assignment across Dialogue Turns with Verifiable Outcomes',
  'Reward Hacking in RLVR: Diagnosing Format Exploits in Math Verifiers',
  'Geometric-Mean Policy Optimization Is Robust to Outlier Importance Ratios',
  'Self-Verification as an Auxiliary Reward in Group Relative Policy Optimization',
  'Asynchronous Rollouts for Scalable GRPO Training on Commodity Clusters',
  'VAPO-Style Value Augmentation for Stable Long Chain-of-Thought Reinforcement Learning',
  'GRPO with Partial Credit: Graded Verifiers for Competition Mathematics',
  'Token-Level versus Sequence-Level Loss Aggregation: An Empirical Study of GRPO Variants',
  'Exploration Bonuses for RL with Verifiable Rewards in Sparse-Reward Puzzles',
  'Visual GRPO: Reinforcement Learning for Chart and Diagram Reasoning',
  'Low-Rank Adapters Suffice for GRPO: Parameter-Efficient RL for Reasoning',
  'Distilling GRPO-Trained Reasoners into Non-Reasoning Models with On-Policy Data',
];

const MODELS = [
  'Qwen2.5-Math-7B',
  'Qwen3-8B-Base',
  'Llama-3.1-8B-Instruct',
  'DeepSeek-R1-Distill-Qwen-1.5B',
  'Qwen2.5-32B',
  'Qwen2.5-VL-7B',
];
const BENCHES = [
  'AIME 2024',
  'AIME 2025',
  'MATH-500',
  'AMC 2023',
  'OlympiadBench',
  'LiveCodeBench',
  'GPQA-Diamond',
  'MathVista',
  'Minerva Math',
];
const FIRST = [
  'Wei',
  'Yuxuan',
  'Jiahao',
  'Sarah',
  'David',
  'Mingyu',
  'Elena',
  'Haoran',
  'Priya',
  'Tomás',
  'Xinyi',
  'Jonas',
  'Aiko',
  'Omar',
];
const LAST = [
  'Zhang',
  'Li',
  'Chen',
  'Wang',
  'Smith',
  'Kim',
  'Müller',
  'Garcia',
  'Liu',
  'Yang',
  'Patel',
  'Nguyen',
  'Sato',
  'Huang',
];

interface SyntheticPaper {
  arxivId: string;
  title: string;
  abstract: string;
  authors: string[];
  categories: string[];
}

/** Abstracts of 1,200-1,800 characters in the register of the field, built around each title. */
export function grpoDay(seed: number): SyntheticPaper[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  return TITLES.slice(0, PAPERS).map((title, i) => {
    const model = pick(MODELS);
    const [b1, b2, b3] = [pick(BENCHES), pick(BENCHES), pick(BENCHES)];
    const topic = title.split(':')[0]!.replace(/^(When|Rethinking) /, '');
    const sentences = [
      `Reinforcement learning with verifiable rewards (RLVR) has become the standard recipe for improving the reasoning of large language models, and group relative policy optimization (GRPO) is its most widely used algorithm because it needs neither a critic nor a learned reward model.`,
      `However, ${pick(['the group-normalized advantage', 'token-level clipping', 'the KL penalty to the reference policy', 'uniform prompt sampling', 'the length normalization of the loss'])} ${pick(['becomes unreliable', 'introduces a systematic bias', 'wastes a large share of the rollout budget', 'destabilizes training'])} when ${pick(['responses grow to thousands of tokens', 'most groups receive identical rewards', 'the policy drifts far from the behaviour policy', 'the model is small', 'rewards are sparse'])}.`,
      `In this work we study ${topic.charAt(0).toLowerCase()}${topic.slice(1)} and propose a simple modification that ${pick(['replaces the per-group standard deviation with a batch-level statistic', 'clips the importance ratio at the sequence level', 'decouples the lower and upper clipping ranges', 'filters prompts whose rollouts all succeed or all fail', 'removes the KL term and adds an entropy bonus', 'aggregates the loss over tokens rather than sequences'])}, with no extra models and negligible overhead.`,
      `We train ${model} on ${int(8, 60)}k ${pick(['competition mathematics problems', 'programming tasks with unit tests', 'logic puzzles', 'multimodal reasoning questions', 'multi-hop search questions'])} whose answers are checked by a rule-based verifier, sampling ${pick([8, 16, 32, 64])} responses per prompt.`,
      `Compared with a carefully tuned GRPO baseline, our method improves accuracy on ${b1} by ${int(2, 9)}.${int(0, 9)} points and on ${b2} by ${int(1, 6)}.${int(0, 9)} points, reaches the baseline's final accuracy with ${int(25, 60)}% fewer training steps, and keeps the policy entropy from collapsing.`,
      `Ablations show that ${pick(['the gains come mostly from the harder half of the training set', 'the improvement grows with response length', 'the effect holds across three model sizes', 'the method is insensitive to the group size'])}, and a further evaluation on ${b3} confirms that the improvement transfers beyond the training distribution.`,
      `We also analyze the gradient variance of the estimator and show that it is ${pick(['bounded by the group size', 'lower than that of RLOO', 'unbiased up to the clipping term', 'invariant to reward scaling'])}, which explains the more stable training curves.`,
      `A study of the training dynamics reveals that ${pick(['response length grows steadily instead of oscillating', 'the fraction of zero-advantage groups drops from over 40% to under 10%', 'clipped tokens concentrate on low-probability reasoning steps', 'the entropy stays within a narrow band throughout training'])}, and that the benefit is largest for ${pick(['the longest responses', 'the hardest problems', 'smaller models', 'multimodal inputs'])}.`,
      `The method requires changing fewer than ${int(10, 40)} lines of a standard GRPO implementation and adds less than ${int(1, 5)}% to the wall-clock time of a training step.`,
      `Code, training recipes and checkpoints are released to support reproducible research on RL for reasoning.`,
    ];
    // A target length per paper, so abstracts spread over 1,200-1,800 characters like a real listing.
    const target = int(1200, 1800);
    let abstract = sentences.slice(0, 4).join(' ');
    for (const extra of sentences.slice(4))
      if (abstract.length + extra.length + 1 <= target || abstract.length < 1200) abstract += ` ${extra}`;
    const authors = Array.from({ length: int(3, 14) }, () => `${pick(FIRST)} ${pick(LAST)}`);
    const categories = r() < 0.6 ? ['cs.LG', 'cs.CL'] : r() < 0.5 ? ['cs.CL', 'cs.AI'] : ['cs.LG', 'cs.AI', 'cs.CV'];
    return { arxivId: `2611.${String(14000 + i * 37).padStart(5, '0')}`, title, abstract, authors, categories };
  });
}

/**
 * A summary of realistic length for what the fake answers: about what Claude Haiku writes for this
 * schema (two-sentence TL;DR, 3-4 method bullets, numbers in the results, all seven GRPO axes).
 */
function realisticAnswer(params: { messages?: { content?: { text?: string }[] }[] }): Record<string, unknown> {
  const text = params.messages?.[0]?.content?.[0]?.text ?? '';
  const zh = text.includes('Simplified Chinese');
  const title = /"title": "([^"]+)"/.exec(text)?.[1] ?? 'this paper';
  const name = title.split(':')[0]!;
  if (zh) {
    return {
      tldr: `本文提出${name}，在不引入额外模型的前提下修改 GRPO 的一个关键环节，使长推理链的强化学习训练更稳定、样本效率更高。`,
      motivation:
        '基于可验证奖励的强化学习（RLVR）已成为提升大语言模型推理能力的主流方法，但标准 GRPO 在回答很长、组内奖励相同或策略偏离行为策略时，优势估计和裁剪会产生偏差，浪费大量采样预算并导致熵坍缩。',
      method: [
        '保持 GRPO 无评论家、无奖励模型的结构，只修改优势归一化或裁剪方式',
        '对组内奖励全部相同的提示进行过滤或重采样，避免零梯度样本',
        '在序列层面计算重要性比率并裁剪，与序列级奖励保持一致',
        '分析估计量的梯度方差，给出训练更稳定的理论解释',
      ],
      results:
        '在 AIME 2024 上比调优后的 GRPO 基线提高约 5 个百分点，在 MATH-500 上提高约 3 个百分点，并以少 40% 左右的训练步数达到基线的最终准确率；在分布外基准上同样有提升。',
      takeaways:
        '实践者可以把重要性采样的粒度与奖励的粒度对齐，并尽早过滤零方差的组；这些改动几乎没有额外开销，可以直接加入现有的 GRPO 训练流程。',
      grpo_delta: {
        advantage_normalization: 'changed: 用批次级统计量替代组内标准差',
        clipping: 'changed: 序列级裁剪，上下界解耦',
        kl_term: 'changed: 去掉 KL 项',
        loss_aggregation: 'unchanged',
        importance_sampling_level: 'changed: 序列级',
        sampling_filtering: 'changed: 过滤零方差组',
        reward_type: 'unchanged',
      },
    };
  }
  return {
    tldr: `${name} modifies one component of GRPO without adding a critic or reward model, and makes RL with verifiable rewards more stable and sample-efficient on long chain-of-thought reasoning.`,
    motivation:
      'RLVR with GRPO is the standard recipe for improving LLM reasoning, but the group-normalized advantage and token-level clipping become biased when responses are long, when every rollout in a group gets the same reward, or when the policy drifts from the behaviour policy. The result is wasted rollout budget, unstable training curves and entropy collapse.',
    method: [
      'Keep the critic-free GRPO setup and change only how advantages are normalized or ratios are clipped',
      'Filter or resample prompts whose rollouts all succeed or all fail, so no batch slot carries a zero gradient',
      'Compute and clip importance ratios at the sequence level, matching the sequence-level reward',
      'Bound the gradient variance of the estimator to explain the more stable training',
    ],
    results:
      "About +5 points on AIME 2024 and +3 points on MATH-500 over a tuned GRPO baseline, reaching the baseline's final accuracy in roughly 40% fewer training steps; the gains carry over to an out-of-distribution benchmark.",
    takeaways:
      'Match the importance-sampling level to the reward level and drop zero-variance groups early: both changes are nearly free and drop into an existing GRPO training loop.',
    grpo_delta: {
      advantage_normalization: 'changed: batch-level std instead of per-group std',
      clipping: 'changed: sequence-level, decoupled ranges',
      kl_term: 'changed: removed',
      loss_aggregation: 'unchanged',
      importance_sampling_level: 'changed: sequence level',
      sampling_filtering: 'changed: drop zero-variance groups',
      reward_type: 'unchanged',
    },
  };
}

const stat = (xs: number[]) => ({
  min: Math.min(...xs),
  max: Math.max(...xs),
  mean: Math.round(xs.reduce((a, b) => a + b, 0) / xs.length),
});

async function seedWorld(db: JobDeps['db'], day: SyntheticPaper[]): Promise<{ family: number }> {
  let family = 0;
  await db.insert(papers).values(
    day.map((p, i) => {
      const c = classifyPaper({ title: p.title, abstract: p.abstract });
      if (c.grpoFamily) family++;
      return {
        arxivId: p.arxivId,
        arxivVersion: 1,
        titleKey: titleKey(p.title),
        title: p.title,
        abstract: p.abstract,
        authors: p.authors,
        authorCount: p.authors.length,
        categories: p.categories,
        publishedOn: '2026-11-20',
        // The day's papers are GRPO-family by construction; the classifier's own call is reported.
        rulesFamily: true,
        rulesScore: Math.max(c.score, 0.6),
        families: c.families.length ? c.families : ['GRPO'],
        topics: c.topics.length ? c.topics : ['algorithm'],
        classifiedAt: NOW,
        newsAt: new Date(NEWS_AT.getTime() + i * 1000),
        hfUpvotes: i % 3 === 0 ? 5 + i * 3 : null,
      };
    }),
  );
  const r = rng(7);
  await db.insert(channels).values(
    Array.from({ length: CHANNELS }, (_, i) => {
      const timezone = ZONES[i % ZONES.length]!;
      const local = localClock(NOW, timezone).time;
      const postTime = local < '09:00' ? `${local.slice(0, 2)}:00` : '09:00';
      return {
        channelId: String(900_000_000_000_000_000n + BigInt(i)),
        guildId: String(800_000 + (i % 37)),
        timezone,
        postTime,
        language: i % 2 === 0 ? 'en' : 'zh',
        topics: r() < 0.6 ? [] : TOPIC_CHOICES[Math.floor(r() * TOPIC_CHOICES.length)]!,
        maxPapers: [5, 10, 10, 15, 30][Math.floor(r() * 5)]!,
        minScore: r() < 0.8 ? 0 : 0.5,
        quietDay: r() < 0.5 ? 'notice' : 'nothing',
        pingRoleId: r() < 0.2 ? String(700_000 + i) : null,
      };
    }),
  );
  return { family };
}

const modelCalls = (fake: FakeAnthropic) =>
  fake.messageRequests().length +
  fake.requests
    .filter((q) => q.method === 'POST' && q.path === '/v1/messages/batches')
    .reduce((n, q) => n + (q.body?.requests?.length ?? 0), 0);

async function runVariant(
  bench: BenchServer,
  variant: 'direct' | 'batch',
  day: SyntheticPaper[],
  fake: FakeAnthropic,
  log: (s: string) => void,
): Promise<{ result: VariantResult; delivery?: DigestCostResult['delivery']; family: number }> {
  fake.reset();
  const handle = await bench.freshDb(`digest_cost_${variant}_${Date.now()}`);
  try {
    const { family } = await seedWorld(handle.db, day);
    const config = loadConfig({
      ANTHROPIC_API_KEY: 'bench-key',
      ANTHROPIC_BASE_URL: fake.base,
      LLM_BATCH_POLL_MS: '0',
      // 60 pending summaries: direct calls under a higher threshold, the Message Batches API at the default (20).
      LLM_BATCH_THRESHOLD: variant === 'direct' ? '1000' : '20',
    });
    const deps: JobDeps = buildDeps({
      db: handle.db,
      sql: handle.sql,
      config,
      log: pino({ level: 'silent' }),
      now: () => NOW,
    });
    const model = config.anthropic.model;

    log(`digest cost (${variant}): summarizePending for ${day.length} papers x 2 languages`);
    let t0 = performance.now();
    const first = await summarizePending(deps, { sleep: async () => {} });
    const summarizeMs = round(performance.now() - t0);
    const calls = modelCalls(fake);

    let delivery: DigestCostResult['delivery'] | undefined;
    let callsAfterDigests: number | null = null;
    if (variant === 'direct') {
      log(`digest cost: postDigests for ${CHANNELS} channels`);
      const posted: { channelId: string; nonce: string }[] = [];
      const poster: Poster = {
        async send(channelId, _reply, { nonce }) {
          posted.push({ channelId, nonce });
          return { messageId: String(posted.length) };
        },
        async findSent(channelId, _reply, { nonce }) {
          const i = posted.findIndex((p) => p.channelId === channelId && p.nonce === nonce);
          return i < 0 ? null : { messageId: String(i + 1) };
        },
      };
      // Timed cold, as the daily job runs: the first compose of the process, the outbox writes, the sends.
      t0 = performance.now();
      const counts = await deliverDigests(deps, { poster });
      const ms = round(performance.now() - t0);
      // The composer alone over the database afterwards (read-only: each channel's window, papers and summaries; warm).
      t0 = performance.now();
      for (const ch of await handle.db.select().from(channels)) await composeChannelDigest(handle.db, ch, '', NOW);
      const composeMs = round(performance.now() - t0);
      callsAfterDigests = modelCalls(fake);
      const again = await deliverDigests(deps, { poster });
      const [shown] = await handle.sql<{ shown: number; llm: number }[]>`
        with shown as (
          select distinct unnest(d.paper_ids) as paper_id, c.language from deliveries d join channels c using (channel_id) where d.status = 'sent'
        )
        select count(*)::int as shown, count(*) filter (where exists (
          select 1 from summaries s where s.paper_id = shown.paper_id and s.lang = shown.language and s.status = 'ok'
        ))::int as llm from shown`;
      const [papersShown] = await handle.sql<{ n: number; notice: number }[]>`
        select coalesce(sum(n), 0)::int as n, count(*) filter (where n = 0)::int as notice
        from (select channel_id, sum(cardinality(paper_ids)) as n from deliveries where status = 'sent' group by channel_id) per_channel`;
      delivery = {
        planned: counts.planned,
        messages: counts.messages,
        channelsPosted: new Set(posted.map((p) => p.channelId)).size,
        noticeOnly: papersShown!.notice,
        papersShown: papersShown!.n,
        shownPairs: shown!.shown,
        shownWithLlmSummary: shown!.llm,
        ms,
        perChannelMs: round(ms / CHANNELS, 2),
        composeOnlyMs: composeMs,
        secondRunPlanned: again.planned,
      };
    }

    log(`digest cost (${variant}): second summarizePending`);
    const second = await summarizePending(deps, { sleep: async () => {} });
    const rows = await handle.db.execute<{
      lang: string;
      status: string;
      n: number;
      input: number;
      output: number;
      cache_read: number;
      cache_write: number;
      cost: string;
    }>(raw`
      select lang, status, count(*)::int as n, sum(input_tokens)::int as input, sum(output_tokens)::int as output,
        sum(cache_read_tokens)::int as cache_read, sum(cache_write_tokens)::int as cache_write, sum(cost_usd)::text as cost
      from summaries group by lang, status order by lang, status`);
    const tokens: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    const byLang: VariantResult['byLang'] = {};
    const summaries = { ok: 0, failed: 0 };
    let stored = 0;
    for (const row of rows) {
      tokens.input += row.input;
      tokens.output += row.output;
      tokens.cacheRead += row.cache_read;
      tokens.cacheWrite += row.cache_write;
      stored += Number(row.cost);
      if (row.status === 'ok') summaries.ok += row.n;
      else if (row.status === 'failed') summaries.failed += row.n;
      const l = (byLang[row.lang] ??= { calls: 0, input: 0, output: 0, costUsd: 0 });
      l.calls += row.n;
      l.input += row.input;
      l.output += row.output;
      l.costUsd = round(l.costUsd + Number(row.cost), 6);
    }
    const listCost = costUsd(model, tokens, { batch: variant === 'batch' });
    const budgetEstimate = day.reduce(
      (n, p, i) =>
        n +
        (['en', 'zh'] as const).reduce(
          (k, lang) =>
            k + estimateRequestUsd(summaryRequest(paperText(p, i), lang, model), { batch: variant === 'batch' }),
          0,
        ),
      0,
    );
    const result: VariantResult = {
      variant,
      modelCalls: calls,
      httpRequests: fake.requests.length,
      callsAfterDigests,
      callsAfterSecondRun: modelCalls(fake),
      secondRunPending: Number(second.pending),
      summaries,
      tokens,
      byLang,
      storedCostUsd: round(stored, 6),
      listCostUsd: listCost,
      costPerChannelUsd: round(listCost / CHANNELS, 6),
      costPerPaperUsd: round(listCost / day.length, 6),
      budgetEstimateUsd: round(budgetEstimate, 4),
      summarizeMs,
    };
    log(`digest cost (${variant}): ${calls} model calls (${String(first.mode)}), $${listCost}`);
    return { result, delivery, family };
  } finally {
    await handle.close();
  }
}

/** A generated paper as the summariser sees it. */
const paperText = (
  p: Pick<SummaryInput, 'arxivId' | 'title' | 'abstract' | 'authors' | 'categories'>,
  i: number,
): SummaryInput => ({
  id: i,
  arxivId: p.arxivId,
  title: p.title,
  abstract: p.abstract,
  aiSummary: null,
  authors: p.authors,
  categories: p.categories,
});

export async function benchDigestCost(
  bench: BenchServer,
  o: { seed: number; log: (s: string) => void },
): Promise<DigestCostResult> {
  const day = grpoDay(o.seed);
  const fake = await startFakeAnthropicServer({ usage: 'proportional', okAnswer: realisticAnswer });
  try {
    const direct = await runVariant(bench, 'direct', day, fake, o.log);
    const batch = await runVariant(bench, 'batch', day, fake, o.log);
    const model = loadConfig({}).anthropic.model;
    const prompts = day.flatMap((p, i) =>
      (['en', 'zh'] as const).map((lang) => promptChars(summaryRequest(paperText(p, i), lang, model))),
    );
    const answer = (lang: string) =>
      JSON.stringify(
        realisticAnswer({
          messages: [{ content: [{ text: lang === 'zh' ? 'Simplified Chinese "title": "X: y"' : '"title": "X: y"' }] }],
        }),
      ).length;
    const price = priceFor(model);
    return {
      date: new Date().toISOString(),
      model,
      price: { input: price.input, output: price.output },
      papers: day.length,
      abstractChars: stat(day.map((p) => p.abstract.length)),
      classifiedFamily: direct.family,
      channels: { total: CHANNELS, en: CHANNELS / 2, zh: CHANNELS / 2, zones: ZONES.length },
      systemPromptChars: SYSTEM_PROMPT.length,
      systemPromptTokens: Math.ceil(SYSTEM_PROMPT.length / 3.5),
      minCacheableTokens: 4096,
      promptCharsPerCall: stat(prompts),
      answerChars: { en: answer('en'), zh: answer('zh') },
      direct: direct.result,
      batch: batch.result,
      delivery: direct.delivery!,
    };
  } finally {
    await fake.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { digestCostReport } = await import('./report.ts');
  const bench = await startBenchServer();
  try {
    const r = await benchDigestCost(bench, { seed: 1, log: (s) => process.stderr.write(`${s}\n`) });
    console.log(process.argv.includes('--json') ? JSON.stringify(r, null, 2) : digestCostReport(r));
  } finally {
    await bench.stop();
  }
}
