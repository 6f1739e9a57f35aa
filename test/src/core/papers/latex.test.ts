import { describe, expect, it } from 'vitest';
import { readable } from '../../../../src/core/papers/latex.ts';
import { paperListReply } from '../../../../src/core/views/paper-list.ts';
import { paperCardReply } from '../../../../src/core/views/paper-card.ts';
import { paperCard } from '../../../../src/core/digest/card.ts';
import { extractiveSummary } from '../../../../src/services/summarize/fallback.ts';
import { labelsFor } from '../../../../src/core/digest/labels.ts';

/** Abstracts as arXiv serves them (from the seed corpus). */
const RES_T =
  'We propose \\textbf{Res}haped \\textbf{T}oken-level policy gradients (\\textbf{ResT}), outperforming prior methods by up to $8.76\\%$. Group Relative Policy Optimization (GRPO)~\\cite{Shao-2024-Deepseekmath} is an \\emph{all-negative-sample} case.';

describe('readable', () => {
  it('reads a lone relation before a number and a degree sign as math, and money as money', () => {
    expect(readable('over $>$1M users, about $\\sim$3x faster')).toBe('over >1M users, about ~3x faster');
    expect(readable('a $90^\\circ$ turn')).toBe('a 90° turn');
    expect(readable('costs $5 and $10 now')).toBe('costs $5 and $10 now');
  });

  it('renders the LaTeX of arXiv abstracts as text: fonts, percentages, citations, emphasis', () => {
    expect(readable(RES_T)).toBe(
      'We propose Reshaped Token-level policy gradients (ResT), outperforming prior methods by up to 8.76%. Group Relative Policy Optimization (GRPO) is an all-negative-sample case.',
    );
  });

  it('drops a citation in parentheses and shows one the sentence needs as a short reference, never its key', () => {
    // From the seed corpus: "...advancing recent insights from \citet{Xiong-2025-Minimalist}." read "...insights from."
    expect(readable('advancing recent insights from \\citet{Xiong-2025-Minimalist}.')).toBe(
      'advancing recent insights from [Xiong 2025].',
    );
    expect(readable('we adopt the reward from \\cite{shao2024deepseekmath}.')).toBe(
      'we adopt the reward from [Shao 2024].',
    );
    expect(readable('as in~\\cite{betti2026holder}, and GRPO \\citep{grpo, dapo} is')).toBe(
      'as in [Betti 2026], and GRPO is',
    );
    expect(readable('methods (e.g., \\cite{li2024fine,Xuetal2018}) and (\\cite{companion}) work')).toBe(
      'methods (e.g., [Li 2024; Xu 2018]) and work',
    );
    expect(readable('This is known.~\\cite{x} \\cite{guo2025deepseek} show that it is. See \\cite{grpo}.')).toBe(
      'This is known. [Guo 2025] show that it is. See [ref].',
    );
    expect(readable('Shao et al.~\\cite{shao2024} propose GRPO~\\cite{Shao-2024-Deepseekmath}, known for')).toBe(
      'Shao et al. propose GRPO, known for',
    );
  });

  it('reads what is left of LaTeX a feed half dropped: a braced script, a lone brace, a link label', () => {
    // From the seed corpus, as Hugging Face serves them.
    expect(readable('We introduce Reasoning Scaffolding}, a framework')).toBe(
      'We introduce Reasoning Scaffolding, a framework',
    );
    expect(readable('Code: https://github.com/x/PairUni{github.com/x/PairUni}')).toBe(
      'Code: https://github.com/x/PairUni',
    );
    expect(readable('Code: https://github.com/x/Mix-GRM{Github}.')).toBe(
      'Code: Github (https://github.com/x/Mix-GRM).',
    );
    // From arXiv: a footnote cut short keeps its text; an \href whose command went reads as two words.
    expect(readable('validation.\\footnote{Code and data are at this https URL')).toBe(
      'validation.Code and data are at this https URL',
    );
    expect(readable('is available at this https URL}{this https URL.')).toBe(
      'is available at this https URL this https URL.',
    );
    expect(readable('Wilcoxon p = 3.2 x 10^{-4}, and H_{t-1}')).toBe('Wilcoxon p = 3.2 x 10⁻⁴, and H_(t-1)');
    expect(readable('we sample a hard-but-solvable q^{+} and a brittle prompt q^{-}(high success rate)')).toBe(
      'we sample a hard-but-solvable q⁺ and a brittle prompt q⁻(high success rate)',
    );
  });

  it('renders math: scripts, symbols, \\text, and leaves money and literal \\n alone', () => {
    expect(readable('O$^2$-Searcher and D$^3$S maximise ($\\text{Var}(A)$) with $\\epsilon$-greedy $7$B models')).toBe(
      'O²-Searcher and D³S maximise (Var(A)) with ε-greedy 7B models',
    );
    expect(readable('Long$\\otimes$Short, RMSD < 2{\\AA}')).toBe('Long⊗Short, RMSD < 2Å');
    expect(readable('It costs $5 and $10 million')).toBe('It costs $5 and $10 million');
    expect(readable('delimiters like "\\n\\n" mark reflection')).toBe('delimiters like "\\n\\n" mark reflection');
  });

  it('keeps the name of a macro a paper defines, links as their text, and drops size switches', () => {
    expect(readable('we propose Atom of Thoughts (\\our), and \\DisORM beats {\\small tiny} \\GenPRM.')).toBe(
      'we propose Atom of Thoughts (our), and DisORM beats tiny GenPRM.',
    );
    expect(readable("Code: \\href{https://github.com/x/y}{https://github.com/x/y}; see ``quoted'' text")).toBe(
      'Code: https://github.com/x/y; see “quoted” text',
    );
  });

  it('returns text without LaTeX unchanged', () => {
    const plain = 'GRPO {with braces} and a tilde~ in 3.5 $ amounts';
    expect(readable(plain)).toBe(plain);
  });

  it('is what cards, lists (search snippets), digest cards and extractive summaries show', () => {
    const p = {
      id: 1,
      arxivId: '2509.21826',
      arxivVersion: 1,
      titleKey: 'rest',
      title: 'ResT: \\textbf{Res}haping Policies',
      titleZh: null,
      authors: [],
      authorCount: null,
      organization: null,
      publishedOn: '2025-09-26',
      hfUpvotes: null,
      families: ['GRPO'],
      abstract: RES_T,
    };
    const shown = (s: string) => expect(s.includes('\\textbf') || s.includes('$8') || s.includes('\\cite')).toBe(false);
    const list = paperListReply({ title: 'Papers', papers: [p], snippet: 400 }).embeds![0]!.description!;
    shown(list);
    expect(list).toContain('ResT: Reshaping Policies');
    expect(list).toContain('up to 8.76%');
    const card = paperCardReply({
      paper: {
        ...p,
        abstractZh: null,
        categories: [],
        topics: [],
        githubUrl: null,
        githubStars: null,
        projectPage: null,
        aiSummary: null,
      } as never,
      notes: [],
      citing: [],
      citingCount: 0,
      cites: [],
    }).embeds![0]!;
    shown(`${card.title}\n${card.description}`);
    const summary = extractiveSummary({ abstract: RES_T, aiSummary: null }, 'en');
    shown(summary.tldr);
    const digest = paperCard(
      {
        ...p,
        grpoFamily: true,
        familyScore: 1,
        topics: [],
        githubUrl: null,
        githubStars: null,
        votes: 0,
        newsAt: new Date(0),
      },
      { kind: 'llm', tldr: 'Reshapes the gradient by $\\epsilon$~\\cite{x}.' },
      labelsFor('en'),
      'en',
    );
    expect(digest.embed.title).toBe('ResT: Reshaping Policies');
    expect(digest.embed.description).toContain('Reshapes the gradient by ε.');
    shown(JSON.stringify(digest));
  });
});
