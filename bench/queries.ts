/**
 * The fixed query set of the search benchmark, by class. The classes stress different parts of
 * searchPapers: acronyms (one rare-ish term), questions (many words, few of them meaningful),
 * phrases (several topic words), typos (the trigram branch), Chinese (the bigram branch), rare
 * words (tiny match sets) and common words (huge match sets: the expensive case).
 */
import { tailWord } from './corpus.ts';

export type QueryClass = 'acronym' | 'question' | 'phrase' | 'typo' | 'chinese' | 'rare' | 'common';

/** `expect`: a paper planted in every corpus (bench/vocab.ts LANDMARKS) that should rank near the top. */
export const QUERIES: { cls: QueryClass; q: string; expect?: string }[] = [
  { cls: 'acronym', q: 'GSPO' },
  { cls: 'acronym', q: 'DAPO' },
  { cls: 'acronym', q: 'GRPO' },
  { cls: 'acronym', q: 'RLOO' },
  { cls: 'question', q: 'which methods remove the KL penalty' },
  { cls: 'question', q: 'how do I stop entropy collapse during RL training' },
  { cls: 'question', q: 'papers about reward hacking in math reasoning' },
  { cls: 'question', q: 'what makes reasoning models overthink and how to shorten responses' },
  { cls: 'question', q: 'sequence-level importance ratio instead of token-level' },
  {
    cls: 'question',
    q: 'a critical perspective on R1-Zero-like training',
    expect: 'Understanding R1-Zero-Like Training: A Critical Perspective',
  },
  { cls: 'phrase', q: 'group relative policy optimization' },
  { cls: 'phrase', q: 'process reward model' },
  { cls: 'phrase', q: 'multimodal reasoning with verifiable rewards' },
  { cls: 'phrase', q: 'multi-turn tool use agents' },
  {
    cls: 'phrase',
    q: 'DAPO open-source reinforcement learning system',
    expect: 'DAPO: An Open-Source LLM Reinforcement Learning System at Scale',
  },
  { cls: 'typo', q: 'Group Sequense Polcy Optimisation', expect: 'Group Sequence Policy Optimization' },
  {
    cls: 'typo',
    q: 'reinforcment lerning from human feedbak',
    expect: 'Deep Reinforcement Learning from Human Feedback for Reasoning',
  },
  {
    cls: 'typo',
    q: 'Efficent Entropie Exploraton',
    expect: 'Efficient Entropy-Guided Exploration for Reasoning Models',
  },
  {
    cls: 'typo',
    q: 'Rethinkng Lenght Scalling in long chain-of-thougt',
    expect: 'Rethinking Length Scaling in Long Chain-of-Thought Reasoning',
  },
  { cls: 'chinese', q: '群组序列策略优化', expect: 'Group Sequence Policy Optimization' },
  { cls: 'chinese', q: '强化学习' },
  { cls: 'chinese', q: '熵' },
  { cls: 'chinese', q: '奖励模型的过程奖励' },
  { cls: 'chinese', q: 'GRPO 数学推理' },
  { cls: 'rare', q: 'sudoku', expect: 'Sudoku-R1: Verifiable Rewards for Constraint Puzzles' },
  { cls: 'rare', q: tailWord(5000) },
  { cls: 'rare', q: `${tailWord(800)} ${tailWord(12000)}` },
  { cls: 'rare', q: 'pathology radiology report' },
  { cls: 'common', q: 'reinforcement learning' },
  { cls: 'common', q: 'large language models reasoning performance' },
  { cls: 'common', q: 'policy' },
  { cls: 'common', q: 'training data results show that our method improves the model' },
];

export const CLASSES: QueryClass[] = ['acronym', 'question', 'phrase', 'typo', 'chinese', 'rare', 'common'];
