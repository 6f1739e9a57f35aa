/** The digest's fixed strings in each channel language. Paper text is never translated here. */
import { citedByText, type CitationCounts } from '../papers/citation-counts.ts';
import type { DigestLanguage } from './types.ts';

export interface DigestLabels {
  title: { daily: string; weekly: string };
  /** "part 2 of 3" on continuation messages. */
  part: (n: number, of: number) => string;
  /** "10 of 14 new papers" when the cap cut the list, "7 new papers" otherwise. */
  count: (shown: number, total: number) => string;
  /** A sample preview's count line: the papers are the latest, not new. */
  sampleCount: (shown: number) => string;
  quiet: string;
  tldr: string;
  kindLabel: { llm: string; note: string; fallback: string };
  delta: string;
  links: string;
  vote: string;
  votes: (n: number) => string;
  /** Semantic Scholar's counts and their date, in the footer. */
  citedBy: (c: CitationCounts) => string;
  feedCounts: (fresh: number | null, family: number | null) => string;
  familyCount: (family: number | null) => string;
  warn: { stale: string; empty: string; failing: string; silent: string; never: string };
  deltaAxes: Record<string, string>;
  /** A link's name as buttons and link lines show it (arXiv, PDF and HF are names and stay). */
  linkName: (label: string) => string;
}

const en: DigestLabels = {
  title: { daily: 'GRPO digest', weekly: 'GRPO weekly digest' },
  part: (n, of) => `part ${n} of ${of}`,
  count: (shown, total) =>
    shown < total ? `top ${shown} of ${total} new papers` : `${total} new paper${total === 1 ? '' : 's'}`,
  sampleCount: (shown) => `a sample: the ${shown} latest GRPO-family paper${shown === 1 ? '' : 's'}, not new ones`,
  quiet: 'No new GRPO-family papers since the last digest.',
  tldr: 'TL;DR',
  kindLabel: { llm: '', note: 'from the seed notes', fallback: 'extractive, not LLM-written' },
  delta: 'Change vs GRPO',
  links: 'Links',
  vote: 'Vote for reading group',
  votes: (n) => `${n} vote${n === 1 ? '' : 's'}`,
  citedBy: citedByText,
  feedCounts: (fresh, family) => `${fresh ?? '?'} new, ${family ?? '?'} GRPO-family`,
  familyCount: (family) => `${family ?? '?'}`,
  warn: {
    stale: 'looks stale',
    empty: 'is empty',
    failing: 'is failing',
    silent: 'has not polled successfully since',
    never: 'has never polled successfully',
  },
  deltaAxes: {
    advantage_normalization: 'advantage',
    clipping: 'clipping',
    kl_term: 'KL',
    loss_aggregation: 'loss aggregation',
    importance_sampling_level: 'importance sampling',
    sampling_filtering: 'sampling',
    reward_type: 'reward',
  },
  linkName: (label) => label,
};

const ZH_LINKS: Record<string, string> = {
  Code: '代码',
  'Project page': '项目主页',
  'Find on arXiv': '在 arXiv 查找',
};

const zh: DigestLabels = {
  title: { daily: 'GRPO 论文日报', weekly: 'GRPO 论文周报' },
  part: (n, of) => `第 ${n}/${of} 部分`,
  count: (shown, total) => (shown < total ? `新论文 ${total} 篇，精选 ${shown} 篇` : `新论文 ${total} 篇`),
  sampleCount: (shown) => `示例：最近的 ${shown} 篇 GRPO 家族论文，并非新论文`,
  quiet: '自上一期以来没有新的 GRPO 家族论文。',
  tldr: '要点',
  kindLabel: { llm: '', note: '来自种子笔记', fallback: '摘录，非 LLM 生成' },
  delta: '相对 GRPO 的改动',
  links: '链接',
  vote: '投票进读书会',
  votes: (n) => `${n} 票`,
  citedBy: (c) =>
    `被引 ${c.citationCount.toLocaleString('en-US')} 次（${c.influentialCount.toLocaleString('en-US')} 次有影响力）· 截至 ${c.fetchedAt.toISOString().slice(0, 10)}`,
  feedCounts: (fresh, family) => `新 ${fresh ?? '?'} 篇，GRPO 家族 ${family ?? '?'} 篇`,
  familyCount: (family) => `${family ?? '?'} 篇`,
  warn: {
    stale: '疑似未更新',
    empty: '为空',
    failing: '抓取失败',
    silent: '最近一次成功抓取于',
    never: '从未成功抓取',
  },
  deltaAxes: {
    advantage_normalization: '优势归一化',
    clipping: '裁剪',
    kl_term: 'KL',
    loss_aggregation: '损失聚合',
    importance_sampling_level: '重要性采样',
    sampling_filtering: '采样/过滤',
    reward_type: '奖励',
  },
  linkName: (label) => ZH_LINKS[label] ?? label,
};

export function labelsFor(lang: DigestLanguage): DigestLabels {
  return lang === 'zh' ? zh : en;
}
