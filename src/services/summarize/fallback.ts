import { neutralizeMentions, truncate } from '../../core/reply.ts';
import type { Lang } from './schema.ts';
import { readable } from '../../core/papers/latex.ts';

/** What is stored or shown when no LLM summary exists: clearly not LLM-written. */
export interface FallbackContent {
  label: string;
  /** HF's AI summary when the paper has one, else the abstract's sentences that state its contribution (else its first). */
  tldr: string;
  /** The abstract's excerpt when `tldr` is HF's summary; null otherwise. */
  excerpt: string | null;
}

type Excerpt = 'contribution' | 'first';

/** Each label says which sentences it shows: the contribution's, or (when none states it) the first. */
const LABELS: Record<Lang, Record<Excerpt, { abstract: string; hf: string }>> = {
  en: {
    contribution: {
      abstract: 'Extractive summary (not LLM-written): the abstract’s sentences stating its contribution',
      hf: "Not written by this bot's LLM: Hugging Face's AI summary and the abstract's sentences stating its contribution",
    },
    first: {
      abstract: 'Extractive summary (not LLM-written): first sentences of the abstract',
      hf: "Not written by this bot's LLM: Hugging Face's AI summary and the first sentences of the abstract",
    },
  },
  zh: {
    contribution: {
      abstract: '摘录（非 LLM 生成）：摘要中陈述本文贡献的句子',
      hf: '非本机器人 LLM 生成：Hugging Face 的 AI 摘要与摘要中陈述本文贡献的句子',
    },
    first: {
      abstract: '摘录（非 LLM 生成）：摘要的前几句',
      hf: '非本机器人 LLM 生成：Hugging Face 的 AI 摘要与摘要的前几句',
    },
  },
};

/**
 * A sentence that states what the paper does, not the field's background: "We propose ...", "This
 * paper introduces ...", "we show that ...", "本文提出...". Proposals rank above findings.
 */
const PROPOSAL =
  /\b(?:we|this (?:paper|work|study|article)|in this (?:paper|work),? we|here,? we)\s+(?:\w+\s+)?(?:propose|introduce|present|develop|design|put forward|build|contribute)s?\b|本文提出|我们提出|提出了(?:一种|一个)/i;
const FINDING =
  /\b(?:we|this (?:paper|work|study))\s+(?:\w+\s+)?(?:show|demonstrate|find|reveal|identify|prove|establish|argue|investigate|study|analy[sz]e)s?\b|本文(?:研究|分析|发现|表明)|我们(?:发现|表明|证明)/i;

/**
 * The sentences of an abstract that state its contribution, up to about `maxChars`: the first
 * proposal sentence (else the first finding) and what follows it, or the first sentences when no
 * sentence states one.
 */
export function contributionSentences(text: string, maxChars = 350): { text: string; excerpt: Excerpt } {
  const all = sentences(text);
  let at = all.findIndex((s) => PROPOSAL.test(s));
  if (at < 0) at = all.findIndex((s) => FINDING.test(s));
  if (at <= 0) return { text: firstSentences(text, maxChars), excerpt: at === 0 ? 'contribution' : 'first' };
  return { text: firstSentences(all.slice(at).join(' '), maxChars), excerpt: 'contribution' };
}

/** Abbreviations after which a period does not end a sentence. */
const ABBREV = /(?:\b(?:e\.g|i\.e|et al|vs|cf|Fig|Eq|Sec|Tab|approx|resp|No)|\b[A-Z])\.$/;

/** Splits English or Chinese prose into sentences, conservatively (a missed split only makes a longer excerpt). */
export function sentences(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return [];
  const out: string[] = [];
  let start = 0;
  const re = /[.!?](?=\s+[A-Z0-9("“])|[。！？]/g;
  for (let m = re.exec(flat); m; m = re.exec(flat)) {
    const candidate = flat.slice(start, m.index + 1);
    if (m[0] === '.' && ABBREV.test(candidate)) continue;
    out.push(candidate.trim());
    start = m.index + 1;
  }
  const rest = flat.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** The first sentences of a text, up to about `maxChars` (at least one sentence, clipped if it alone is longer). */
export function firstSentences(text: string, maxChars = 350): string {
  let out = '';
  for (const s of sentences(text)) {
    if (out && out.length + s.length + 1 > maxChars) break;
    out = out ? `${out}${/[。！？]$/.test(out) ? '' : ' '}${s}` : s;
  }
  return truncate(out, maxChars + 100);
}

/**
 * The extractive fallback: no model involved, so it is always available. It shows the sentences that
 * state the paper's contribution, not the abstract's opening (usually the field's background). Chinese channels get the
 * Chinese abstract when one is stored, else the English one under a Chinese label.
 */
export function extractiveSummary(
  p: { abstract: string; abstractZh?: string | null; aiSummary: string | null },
  lang: Lang,
): FallbackContent {
  const source = lang === 'zh' && p.abstractZh?.trim() ? p.abstractZh : p.abstract;
  const picked = contributionSentences(readable(source || ''));
  const excerpt = neutralizeMentions(picked.text);
  const labels = LABELS[lang][picked.excerpt];
  const hf = p.aiSummary?.trim();
  if (hf) return { label: labels.hf, tldr: truncate(neutralizeMentions(hf), 400), excerpt: excerpt || null };
  return { label: labels.abstract, tldr: excerpt || '(no abstract stored)', excerpt: null };
}
