/**
 * What a chat question asks for, as weighted search terms (pure). Question scaffolding in either
 * language is dropped ("what is the difference between", "are there papers on", 有没有…的论文,
 * 怎么办), and so are question words and problem verbs ("how do I", "stop", "fix", "best", 如何):
 * they say what the asker wants done, not what the paper is about. Family and method names the
 * lexicon knows are weighed up; Chinese words found in the glossary become the English words
 * abstracts use, the others stay Chinese bigrams; a problem told in a practitioner's words gets the
 * field's terms for it (vocabulary.ts); quoted phrases and -exclusions are honoured.
 */
import { FAMILY_CUES } from '../papers/lexicon.ts';
import { pairs, term, terms, words } from '../text/analyze.ts';
import { ZH_GLOSSARY } from './glossary.ts';
import { problemsIn } from './vocabulary.ts';
import { segment, type ZhDictionary } from './zh.ts';

export interface QueryTerm {
  term: string;
  weight: number;
  /** Where it came from, for explanations and tests. */
  from: 'word' | 'family' | 'glossary' | 'zh' | 'pair' | 'vocabulary' | 'feedback';
  /** Typed inside quotes: taken as typed, never corrected. */
  exact?: boolean;
  /** The word as typed (lowercased), for a word the user typed: what a correction notice quotes. */
  word?: string;
}

export interface ParsedQuery {
  terms: QueryTerm[];
  /** Papers with any of these terms are left out (-word). */
  exclude: string[];
  /** A quoted phrase: a paper must have every one of its terms (and ranks higher with them adjacent in its title). */
  phrases: string[][];
  /** The problems the question names in a practitioner's words (vocabulary.ts), by name. */
  problems: string[];
  /** The question is about GRPO-family training (a family name, or a training problem): family papers are preferred. */
  familyContext: boolean;
}

const SCAFFOLD_EN = [
  /\bwhat(?:'s| is| are)? the (?:difference|differences|diff) (?:between|of)\b/g,
  /\b(?:difference|differences|compare|comparison|comparing) (?:between|of|to|with)\b/g,
  /\b(?:are|is) there (?:any |some )?(?:papers?|works?|studies|research|methods?|approaches)?\s*(?:on|about|that|for|which|using|with)?\b/g,
  /\b(?:any|some|recent|good|the) (?:papers?|works?|studies|research) (?:on|about|that|for|using|with)\b/g,
  /\b(?:which|what) (?:papers?|works?|methods?|approaches?|one)\b/g,
  /\bhow (?:do|can|should|would|could) (?:i|we|you|one)\b/g,
  /\b(?:i'?m|i am|we'?re|we are) (?:looking for|trying to|working on|training)\b/g,
  /\b(?:can|could) (?:you|someone) (?:find|recommend|point me to|suggest)\b/g,
  /\b(?:looking for|recommend(?:ations?)?|please|pls|plz|thanks|thx|anyone know|does anyone know|any ideas?|tldr|tl;dr)\b/g,
  /\b(?:papers?|works?) (?:on|about)\b/g,
  /\bwhat (?:do|can|should|would) (?:people|i|we|you|folks) do(?: about it| about this| then)?\b/g,
  /\b(?:any|some) (?:tips|tricks|advice|suggestions|pointers)\b/g,
  /\b(?:is|was) it (?:actually |really )?(?:worth it|worth|a good idea)\b/g,
  /\bin the first place\b/g,
];

/** Words that only carry the question (after stemming). */
const QUESTION_TERMS = new Set([
  'paper',
  'work',
  'studi',
  'research',
  'method',
  'approach',
  'propos',
  'anyth',
  'someth',
  'know',
  'find',
  'look',
  'recommend',
  'want',
  'need',
  'help',
  'hey',
  'hi',
  'guy',
  'folk',
  'anyon',
  'someon',
  'like',
  'thing',
  'stuff',
  'kind',
  'sort',
  'actual',
  'realli',
  'basic',
  'pretti',
  'exist',
  'differ',
  'vs',
  'versu',
  'compar',
  'better',
  'good',
  'best',
  'way',
  'wai',
  'idea',
  'question',
  'mean',
  'explain',
  'tell',
  'get',
  'got',
  'use',
  'us',
  'tri',
  'ok',
  'okay',
  'lol',
  'also',
  'eg',
  'ie',
  'etc',
  'which',
  'doe',
  'make',
  'one',
  'ani',
  'wa',
  'ha',
  'whi',
  'yet',
  // Problem verbs and judgements: what the asker wants done to the topic, not the topic.
  'stop',
  'fix',
  'avoid',
  'prevent',
  'solv',
  'handl',
  'deal',
  'tip',
  'trick',
  'worth',
  'peopl',
  'wonder',
  'should',
  'might',
  'feel',
  'seem',
  'guess',
  'happen',
  'lol',
  'tbh',
  'imo',
  'pleas',
  'keep',
  'go',
  'goe',
  'ever',
  'right',
]);

/** Chinese question words and fillers (whole words after segmentation). */
export const SCAFFOLD_ZH = new Set([
  '有没有',
  '有无',
  '有哪些',
  '哪些',
  '什么',
  '是什么',
  '是啥',
  '啥',
  '怎么',
  '怎么办',
  '怎样',
  '如何',
  '为什么',
  '为何',
  '吗',
  '呢',
  '吧',
  '啊',
  '呀',
  '的',
  '了',
  '地',
  '得',
  '和',
  '与',
  '跟',
  '及',
  '或',
  '或者',
  '还是',
  '是',
  '在',
  '用',
  '做',
  '把',
  '被',
  '给',
  '对',
  '从',
  '论文',
  '文章',
  '工作',
  '研究',
  '相关',
  '关于',
  '方面',
  '方法',
  '推荐',
  '一下',
  '一些',
  '请问',
  '想',
  '想要',
  '找',
  '看看',
  '求',
  '大佬',
  '谁',
  '能',
  '可以',
  '能否',
  '哪篇',
  '哪个',
  '哪种',
  '区别',
  '差别',
  '不同',
  '对比',
  '比较',
  '之间',
  '我',
  '我们',
  '你',
  '这个',
  '那个',
  '这种',
  '现在',
  '最近',
  '新',
  '一个',
  '有',
  '没有',
  '里',
  '中',
  '上',
  '下',
  '时',
  '时候',
  '会',
  '要',
  '让',
  '问题',
  '解决',
  '缓解',
  '避免',
  '处理',
  '提升',
  '提高',
  '效果',
  '好',
  '更好',
  '很',
  '太',
  '都',
  '也',
  '还',
  '就',
  '又',
  '再',
  '吧',
  '嘛',
  '么',
  '多',
  '少',
  '大',
  '小',
  '些',
  '下面',
  '以及',
  '并且',
  '而且',
  '但是',
  '因为',
  '所以',
  '如果',
  '那么',
  '时间',
  '变',
  '变得',
  '一直',
  '总是',
  '经常',
  '出现',
  // Question words and problem verbs: what the asker wants done, not the topic.
  '如何',
  '怎么做',
  '怎么弄',
  '怎么样',
  '咋',
  '咋办',
  '为啥',
  '办法',
  '有什么办法',
  '什么办法',
  '靠谱',
  '靠谱吗',
  '行不行',
  '能不能',
  '会不会',
  '是不是',
  '有没有必要',
  '必要',
  '有用',
  '没用',
  '真正',
  '到底',
  '该',
  '应该',
  '技巧',
  '大家',
  '一般',
  '通常',
  '坑',
  '有啥',
  '值不值',
  '值得',
  '停止',
  '修复',
  '最好',
  '最佳',
]);

const CJK_RUN = /\p{Script=Han}+/gu;

/** The glossary read backwards: the English terms of each entry (every one must be in the query) and its Chinese word. */
const ENGLISH_TO_ZH: readonly [string, string[]][] = Object.entries(ZH_GLOSSARY)
  .map(([zh, en]): [string, string[]] => [
    zh,
    terms(
      en
        .split(' ')
        .filter((w) => !/^[A-Z0-9]{2,}$/.test(w))
        .join(' '),
    ),
  ])
  .filter(([, en]) => en.length > 0);

export const REVERSE_WEIGHT = 0.3;

/** Family names as typed by users, and the terms they index to (Dr. GRPO: dr grpo). */
const FAMILY_TERMS: ReadonlySet<string> = new Set(FAMILY_CUES.flatMap((c) => terms(c.name)));

/** Weight of the field's terms a practitioner's problem adds (below the words typed: tuned on the dev questions). */
export const VOCABULARY_WEIGHT = 0.5;

/** Typed terms that place a question in GRPO-family training, beside family names and named problems. */
const TRAINING_TERMS = new Set(terms('rollout rollouts advantage advantages policy reward rewards rlvr grpo ppo'));

export function parseQuery(text: string, dict?: ZhDictionary): ParsedQuery {
  const exclude: string[] = [];
  const phrases: string[][] = [];
  const exact = new Set<string>();
  let rest = text.normalize('NFKC');
  rest = rest.replace(/"([^"]+)"|“([^”]+)”/g, (_, a: string | undefined, b: string | undefined) => {
    const ts = terms(a ?? b ?? '');
    // Quoted words must all appear, and are taken as typed (a quoted word is never "corrected").
    if (ts.length > 0) phrases.push(ts);
    for (const t of ts) exact.add(t);
    return ` ${a ?? b ?? ''} `;
  });
  rest = rest.replace(/(^|\s)-([\p{L}\p{N}][\p{L}\p{N}.+-]*)/gu, (_, pre: string, w: string) => {
    exclude.push(...terms(w));
    return pre;
  });
  const problems = problemsIn(rest);
  const out: QueryTerm[] = [];
  // Chinese: segmented, scaffolding dropped, glossary words to English, the rest as bigrams.
  const english: string[] = [];
  for (const [run] of rest.matchAll(CJK_RUN)) {
    const segs = dict ? segment(run, dict) : [run];
    for (const w of segs) {
      if (SCAFFOLD_ZH.has(w)) continue;
      const gloss = ZH_GLOSSARY[w];
      if (gloss) english.push(gloss);
      // A glossary word still matches Chinese notes, but weighs less than its English translation.
      for (const t of zhTerms(w)) out.push({ term: t, weight: gloss ? REVERSE_WEIGHT : 1, from: 'zh' });
    }
  }
  let latin = rest.replace(CJK_RUN, ' ').toLowerCase();
  for (const re of SCAFFOLD_EN) latin = latin.replace(re, ' ');
  const typedWords = words(latin).flatMap((w) => {
    const t = term(w);
    return t && (exact.has(t) || !QUESTION_TERMS.has(t)) ? [{ t, w }] : [];
  });
  const typed = typedWords.map((x) => x.t);
  for (const { t, w } of typedWords)
    out.push({
      term: t,
      weight: FAMILY_TERMS.has(t) ? 1.5 : 1,
      from: FAMILY_TERMS.has(t) ? 'family' : 'word',
      word: w,
    });
  for (const t of english.flatMap((g) => terms(g))) out.push({ term: t, weight: 1, from: 'glossary' });
  // English field words also reach Chinese notes (a paper known by title and a Chinese note only).
  const typedSet = new Set(typed);
  if (english.length === 0) {
    for (const [zh, en] of ENGLISH_TO_ZH) {
      if (en.every((t) => typedSet.has(t)))
        for (const t of zhTerms(zh)) out.push({ term: t, weight: REVERSE_WEIGHT, from: 'zh' });
    }
  }
  for (const p of pairs(typed)) out.push({ term: p, weight: 0.5, from: 'pair' });
  // A problem in a practitioner's words: the field's terms for it, below the words typed.
  for (const phrase of problems.flatMap((p) => p.terms)) {
    const ts = terms(phrase);
    for (const t of ts) out.push({ term: t, weight: VOCABULARY_WEIGHT, from: 'vocabulary' });
    for (const p of pairs(ts)) out.push({ term: p, weight: VOCABULARY_WEIGHT / 2, from: 'vocabulary' });
  }
  const fallback =
    out.length === 0
      ? terms(rest.replace(CJK_RUN, ' ')).map((t): QueryTerm => ({ term: t, weight: 1, from: 'word' }))
      : [];
  const all = merge([...out, ...fallback]).map((t) => (exact.has(t.term) ? { ...t, exact: true } : t));
  const familyContext =
    problems.length > 0 ||
    all.some(
      (t) =>
        (t.from === 'word' || t.from === 'family' || t.from === 'glossary') &&
        (FAMILY_TERMS.has(t.term) || TRAINING_TERMS.has(t.term)),
    );
  return { terms: all, exclude, phrases, problems: problems.map((p) => p.name), familyContext };
}

/** The Chinese terms of a word: itself when short, else its bigrams (as indexed). */
function zhTerms(word: string): string[] {
  const chars = [...word];
  if (chars.length <= 2) return [word];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** A term typed twice counts once, with its highest weight. */
function merge(ts: QueryTerm[]): QueryTerm[] {
  const by = new Map<string, QueryTerm>();
  for (const t of ts) {
    const seen = by.get(t.term);
    if (!seen || seen.weight < t.weight) by.set(t.term, t);
  }
  return [...by.values()];
}
