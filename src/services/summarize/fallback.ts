import { neutralizeMentions, truncate } from '../../core/reply.ts';
import type { Lang } from './schema.ts';
import { readable } from '../../core/papers/latex.ts';

/** What is stored or shown when no LLM summary exists: clearly not LLM-written. */
export interface FallbackContent {
  label: string;
  /** HF's AI summary when the paper has one, else the abstract's first sentences. */
  tldr: string;
  /** The abstract's first sentences when `tldr` is HF's summary; null otherwise. */
  excerpt: string | null;
}

const LABELS: Record<Lang, { abstract: string; hf: string }> = {
  en: {
    abstract: 'Extractive summary (not LLM-written): first sentences of the abstract',
    hf: "Not written by this bot's LLM: Hugging Face's AI summary and the first sentences of the abstract",
  },
  zh: {
    abstract: '摘录（非 LLM 生成）：摘要的前几句',
    hf: '非本机器人 LLM 生成：Hugging Face 的 AI 摘要与摘要的前几句',
  },
};

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
 * The extractive fallback: no model involved, so it is always available. Chinese channels get the
 * Chinese abstract when one is stored, else the English one under a Chinese label.
 */
export function extractiveSummary(
  p: { abstract: string; abstractZh?: string | null; aiSummary: string | null },
  lang: Lang,
): FallbackContent {
  const source = lang === 'zh' && p.abstractZh?.trim() ? p.abstractZh : p.abstract;
  const excerpt = neutralizeMentions(firstSentences(readable(source || '')));
  const hf = p.aiSummary?.trim();
  if (hf) return { label: LABELS[lang].hf, tldr: truncate(neutralizeMentions(hf), 400), excerpt: excerpt || null };
  return { label: LABELS[lang].abstract, tldr: excerpt || '(no abstract stored)', excerpt: null };
}
