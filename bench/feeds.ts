/**
 * A synthetic arXiv RSS feed for the ingest benchmark, in the exact 2024 wire format that
 * src/services/sources/arxiv-rss.ts parses (docs/feed-formats.md; the same shape as test/helpers/feed-builders.ts)
 * and deterministic from a seed.
 *
 * The items look like a busy cs.LG+cs.CL+cs.AI+cs.CV day: abstracts of 1,000-1,500 characters
 * written from sentence templates over many ML areas (vision, graphs, time series, NLP, classic RL,
 * LLM alignment...), a few percent GRPO-family papers (GRPO, DAPO, GSPO, RLVR training statements), a
 * few near misses (DPO-only, robotics RL), now and then LaTeX and the characters XML must escape
 * (`<`, `>`, `&`), authors with affiliations and TeX accents, cross-lists and replacements.
 */
import { rng, tailWord } from './corpus.ts';
import { FIRST_NAMES, LAST_NAMES } from './vocab.ts';

export interface FeedOptions {
  items: number;
  seed: number;
  /** Announcement date, YYYY-MM-DD. */
  date?: string;
  /** Share of GRPO-family papers (written to be positive); the classifier decides what it counts. */
  familyShare?: number;
}

interface Area {
  tasks: string[];
  data: string[];
  methods: string[];
  cats: string[];
}

const AREAS: Record<string, Area> = {
  vision: {
    tasks: [
      'semantic segmentation',
      'object detection',
      'image classification',
      'depth estimation',
      'video understanding',
      'image restoration',
      'open-vocabulary detection',
    ],
    data: ['ImageNet', 'COCO', 'ADE20K', 'Cityscapes', 'Kinetics-400', 'NYU-Depth v2'],
    methods: [
      'vision transformer',
      'convolutional backbone',
      'diffusion prior',
      'masked autoencoder',
      'feature pyramid',
    ],
    cats: ['cs.CV', 'cs.LG'],
  },
  graphs: {
    tasks: [
      'node classification',
      'link prediction',
      'molecular property prediction',
      'graph generation',
      'community detection',
    ],
    data: ['OGB-Arxiv', 'Cora', 'ZINC', 'QM9', 'PubMed'],
    methods: [
      'message-passing network',
      'graph transformer',
      'spectral filter',
      'equivariant network',
      'hypergraph encoder',
    ],
    cats: ['cs.LG', 'stat.ML'],
  },
  timeseries: {
    tasks: [
      'long-horizon forecasting',
      'anomaly detection',
      'imputation of missing values',
      'traffic prediction',
      'load forecasting',
    ],
    data: ['ETTh1', 'Electricity', 'Traffic', 'Weather', 'M4'],
    methods: [
      'patch-based transformer',
      'state-space model',
      'frequency-domain mixer',
      'recurrent encoder',
      'foundation model',
    ],
    cats: ['cs.LG', 'stat.ML'],
  },
  nlp: {
    tasks: [
      'machine translation',
      'question answering',
      'named entity recognition',
      'summarization',
      'retrieval-augmented generation',
      'information extraction',
    ],
    data: ['WMT22', 'Natural Questions', 'HotpotQA', 'CNN/DailyMail', 'MS MARCO', 'FLORES-200'],
    methods: [
      'encoder-decoder model',
      'dense retriever',
      'instruction-tuned model',
      'multilingual language model',
      'reranker',
    ],
    cats: ['cs.CL', 'cs.AI', 'cs.LG'],
  },
  optimisation: {
    tasks: [
      'non-convex optimization',
      'federated learning',
      'hyperparameter tuning',
      'continual learning',
      'differentially private training',
    ],
    data: ['CIFAR-10', 'CIFAR-100', 'FEMNIST', 'Shakespeare', 'Tiny-ImageNet'],
    methods: [
      'adaptive optimizer',
      'momentum method',
      'second-order preconditioner',
      'client sampling scheme',
      'learning-rate schedule',
    ],
    cats: ['cs.LG', 'math.OC', 'stat.ML'],
  },
  classicrl: {
    tasks: [
      'continuous control',
      'robotic manipulation',
      'multi-agent coordination',
      'offline reinforcement learning',
      'autonomous driving',
    ],
    data: ['MuJoCo', 'D4RL', 'Atari 100k', 'Meta-World', 'StarCraft II'],
    methods: ['actor-critic agent', 'world model', 'Q-learning variant', 'model-based planner', 'soft actor-critic'],
    cats: ['cs.LG', 'cs.RO', 'cs.AI'],
  },
  llm: {
    tasks: [
      'instruction following',
      'long-context modelling',
      'code completion',
      'hallucination detection',
      'tool use',
      'preference alignment',
    ],
    data: ['MMLU', 'HumanEval', 'AlpacaEval 2', 'LongBench', 'MT-Bench', 'TruthfulQA'],
    methods: [
      'large language model',
      'mixture-of-experts model',
      'small language model',
      'speculative decoder',
      'KV-cache compression scheme',
    ],
    cats: ['cs.CL', 'cs.LG', 'cs.AI'],
  },
  science: {
    tasks: [
      'protein structure prediction',
      'weather forecasting',
      'PDE surrogate modelling',
      'materials discovery',
      'single-cell analysis',
    ],
    data: ['CATH', 'ERA5', 'PDEBench', 'Materials Project', 'Tabula Sapiens'],
    methods: [
      'neural operator',
      'physics-informed network',
      'generative model',
      'equivariant transformer',
      'Gaussian process',
    ],
    cats: ['cs.LG', 'physics.comp-ph', 'q-bio.QM'],
  },
};
const AREA_NAMES = Object.keys(AREAS);

const ADJS = [
  'efficient',
  'scalable',
  'robust',
  'simple',
  'unified',
  'adaptive',
  'lightweight',
  'principled',
  'data-efficient',
  'training-free',
  'provable',
];
const VERBS = ['improves', 'outperforms', 'matches', 'surpasses', 'reduces the error of', 'is competitive with'];
const GAINS = ['3.2%', '7.5%', '12%', '1.8 points', '4.1 points', 'a factor of 2', '27%', '0.9 BLEU', '15% relative'];
const LATEX = [
  '$O(n \\log n)$',
  '$\\ell_2$',
  '$\\mathcal{O}(1/\\sqrt{T})$',
  '$\\epsilon$-greedy',
  '$k$-NN',
  '$\\alpha = 0.1$',
  '$p < 0.05$',
  'Q&A',
  '$\\lambda > 0$',
];
const LLMS = [
  'Qwen2.5-7B',
  'Qwen3-8B',
  'Llama-3.1-8B',
  'DeepSeek-R1-Distill-Qwen-1.5B',
  'Qwen2.5-Math-7B',
  'Mistral-7B',
];
const FAMILY = ['GRPO', 'DAPO', 'GSPO', 'Dr. GRPO', 'RLOO', 'REINFORCE++', 'group relative policy optimization'];
const RL_DOMAINS = ['math', 'code', 'logic puzzle', 'theorem proving', 'multi-hop search', 'visual reasoning'];
const ORGS = [
  'Tsinghua University, China',
  'Peking University',
  'Stanford University, USA',
  'MIT',
  'ETH Z\\"urich, Switzerland',
  'University of Oxford, UK',
  'Shanghai AI Laboratory',
  'Google DeepMind',
  'Microsoft Research',
  'Alibaba Group',
  'KAIST, Korea',
  "Universit\\'e Paris-Saclay, France",
  'University of Toronto, Canada',
  'Max Planck Institute for Intelligent Systems',
  'National University of Singapore',
];
const ACCENTED = [
  "St\\'ephane",
  "Jos\\'e",
  'Fran\\c{c}ois',
  'J\\"urgen',
  'Jo\\~ao',
  "Ren\\'ee",
  'Bj{\\o}rn',
  '\\v{S}imon',
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface SyntheticFeed {
  xml: string;
  items: number;
  /** Items written as GRPO-family papers. */
  familyWritten: number;
}

/**
 * The feed's items dealt round-robin into `parts` RSS documents with the same header: one per
 * category, since the bot refuses a response over 16 MB and a 20,000-item day is larger (arXiv's own
 * daily listings are a few hundred items per category).
 */
export function splitFeed(xml: string, parts: number): string[] {
  const start = xml.indexOf('    <item>');
  const end = xml.lastIndexOf('</item>') + '</item>'.length;
  const items = xml.slice(start, end).split(/(?<=<\/item>)\n/);
  return Array.from(
    { length: parts },
    (_, k) => `${xml.slice(0, start)}${items.filter((_, i) => i % parts === k).join('\n')}${xml.slice(end)}`,
  );
}

/** One RSS document with `items` items. */
export function syntheticArxivFeed(opts: FeedOptions): SyntheticFeed {
  const r = rng(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const date = opts.date ?? '2026-11-20';
  const day = new Date(`${date}T05:00:00Z`);
  const pub = `${day.toUTCString().slice(0, 16)} 00:00:00 -0500`;
  const familyShare = opts.familyShare ?? 0.04;
  const rare = () => tailWord(int(0, 19_999));
  const name = () => {
    const first = r() < 0.04 ? pick(ACCENTED) : pick(FIRST_NAMES);
    return `${first} ${pick(LAST_NAMES)}`;
  };
  let familyWritten = 0;

  const items: string[] = [];
  for (let i = 0; i < opts.items; i++) {
    const family = r() < familyShare;
    if (family) familyWritten++;
    const area = AREAS[family ? 'llm' : pick(AREA_NAMES)]!;
    const nearMiss = !family && r() < 0.05;
    const task = pick(area.tasks);
    const method = pick(area.methods);
    const acronym = `${rare().slice(0, 4).toUpperCase()}${r() < 0.5 ? '-' + pick(['Net', 'Former', 'Mix', 'Bench', 'X']) : ''}`;
    const algo = pick(FAMILY);
    const llm = pick(LLMS);
    const rlDomain = pick(RL_DOMAINS);

    const title = family
      ? pick([
          `${acronym}: ${cap(pick(ADJS))} ${algo} for ${cap(rlDomain)} Reasoning in Large Language Models`,
          `Rethinking Advantage Estimation in ${algo} with Verifiable Rewards`,
          `${acronym}: Reinforcement Learning with Verifiable Rewards for ${cap(rlDomain)} Agents`,
          `Stabilizing ${algo} Training of ${llm} via ${cap(pick(['entropy control', 'sequence-level clipping', 'dynamic sampling', 'length penalties']))}`,
        ])
      : nearMiss
        ? pick([
            `${acronym}: Direct Preference Optimization without a Reward Model for ${cap(task)}`,
            `Sim-to-Real Transfer of PPO Policies for ${cap(task)}`,
          ])
        : pick([
            `${acronym}: ${cap(pick(ADJS))} ${cap(method)} for ${cap(task)}`,
            `Towards ${cap(pick(ADJS))} ${cap(task)} with ${cap(method)}s`,
            `On the ${cap(pick(['generalization', 'robustness', 'calibration', 'sample complexity', 'scaling']))} of ${cap(method)}s in ${cap(task)}`,
            `When ${cap(rare())} Meets ${cap(method)}: ${cap(pick(ADJS))} ${cap(task)}`,
            `${cap(task)} at Scale: Lessons from ${area.data.length} Benchmarks`,
          ]);

    const general = [
      () =>
        `${cap(task)} is a central problem in machine learning, yet existing ${method}s remain ${pick(['costly', 'brittle', 'hard to tune', 'data hungry'])} when the ${pick(['distribution shifts', 'labels are noisy', 'input is long', 'budget is small'])}.`,
      () =>
        `We propose ${acronym}, a ${pick(ADJS)} ${method} that ${pick(['decouples', 'jointly learns', 'aligns', 'compresses', 'regularizes'])} the ${pick(['representation', 'objective', 'attention pattern', 'latent space', 'memory'])} with ${pick(['a contrastive loss', 'a learned prior', 'a low-rank update', 'an auxiliary head', 'a mixture of experts'])}.`,
      () =>
        `Our analysis shows a convergence rate of ${pick(LATEX)} under ${pick(['mild', 'standard', 'weak'])} assumptions, and the ${rare()} term vanishes as the ${pick(['width', 'batch size', 'number of clients'])} grows.`,
      () =>
        `On ${pick(area.data)} and ${pick(area.data)}, ${acronym} ${pick(VERBS)} strong baselines by ${pick(GAINS)} while using ${int(2, 9)}x less ${pick(['memory', 'compute', 'labelled data', 'wall-clock time'])}.`,
      () =>
        `Extensive ablations on ${pick(area.data)} show that each component matters, in particular the ${pick(['normalization', 'initialization', 'sampling strategy', 'loss weighting', 'curriculum'])}, and that the gains hold for models from ${int(10, 300)}M to ${int(1, 70)}B parameters.`,
      () =>
        `Unlike prior work that relies on ${pick(['hand-crafted features', 'large labelled sets', 'expensive retraining', 'external tools'])}, our ${method} is trained end to end and transfers to ${pick(area.tasks)} without modification.`,
      () =>
        `We further release ${pick(['a benchmark', 'a dataset', 'our code and checkpoints', 'an evaluation suite'])} of ${int(1, 500)}k ${pick(['examples', 'images', 'trajectories', 'documents', 'molecules'])} to support future research on ${task}.`,
      () =>
        `Theoretically, we prove that the ${pick(['estimator', 'update', 'objective'])} is ${pick(['unbiased', 'consistent', 'minimax optimal'])} up to a ${pick(LATEX)} factor, which explains the empirical ${rare()} effect observed in ${pick(area.data)}.`,
      () =>
        `Experiments with ${int(3, 12)} random seeds confirm that the improvement is significant (${pick(LATEX)}), and a qualitative study highlights failure cases on ${pick(['rare classes', 'long inputs', 'out-of-distribution data', 'adversarial prompts'])}.`,
    ];
    const familySentences = [
      () =>
        `Reinforcement learning with verifiable rewards (RLVR) has become the standard recipe for improving the ${rlDomain} reasoning of large language models, and ${algo} is its most popular algorithm.`,
      () =>
        `We train ${llm} with ${algo} on ${int(5, 60)}k ${rlDomain} problems whose answers are checked by a rule-based verifier, without a learned reward model or a critic.`,
      () =>
        `We identify that group-normalized advantages become degenerate when all rollouts in a group receive the same reward, and propose to ${pick(['resample such prompts', 'rescale the advantage', 'clip at the sequence level', 'drop the standard-deviation term'])}.`,
      () =>
        `Our policy optimization objective keeps the clipped importance ratio of PPO but estimates the baseline from a group of ${int(4, 64)} sampled responses per prompt.`,
      () =>
        `On AIME 2024, MATH-500 and ${pick(['LiveCodeBench', 'GPQA-Diamond', 'OlympiadBench'])}, the RL-trained model ${pick(VERBS)} the ${algo} baseline by ${pick(GAINS)} with ${int(20, 60)}% fewer rollouts.`,
    ];
    const nearMissSentences = [
      () =>
        `We fine-tune ${llm} with direct preference optimization on human preference pairs, avoiding reinforcement learning entirely.`,
      () =>
        `A PPO policy is trained in simulation with domain randomization and deployed on a real ${pick(['quadruped', 'robot arm', 'drone'])} without fine-tuning.`,
    ];

    const sentences: string[] = [];
    const lead = family ? familySentences : nearMiss ? nearMissSentences : [];
    for (const s of lead) if (r() < 0.8) sentences.push(s());
    const target = int(1000, 1500);
    let length = sentences.reduce((n, s) => n + s.length + 1, 0);
    // Templates in a shuffled cycle, so an abstract repeats one only when it has used them all.
    const order = general.map((_, k) => k).sort(() => r() - 0.5);
    for (let k = 0; length < target; k++) {
      const s = general[order[k % order.length]!]!();
      sentences.push(s);
      length += s.length + 1;
    }
    // arXiv hard-wraps abstracts; the parser collapses the whitespace.
    const abstract = sentences.join(' ').replace(/(.{70,90}?) /g, (m, line: string) => (r() < 0.3 ? `${line}\n  ` : m));

    const type = r() < 0.6 ? 'new' : r() < 0.6 ? 'cross' : r() < 0.75 ? 'replace' : 'replace-cross';
    const replaced = type.startsWith('replace');
    // Unique ids: the item index is the number, the month tells new papers from replaced ones.
    const id = `${replaced ? pick(['2609', '2610', '2607']) : '2611'}.${String(i + 1).padStart(5, '0')}`;
    const v = replaced ? int(2, 4) : 1;
    const cats = type.endsWith('cross')
      ? [pick(['stat.ML', 'math.OC', 'cs.RO', 'eess.IV', 'q-bio.QM']), ...area.cats.slice(0, int(1, area.cats.length))]
      : area.cats.slice(0, int(1, area.cats.length));
    const authors = Array.from({ length: int(1, 12) }, () =>
      r() < 0.35 ? `${name()} (${pick(ORGS)}${r() < 0.3 ? `, ${pick(ORGS)}` : ''})` : name(),
    );

    items.push(`    <item>
      <title>${esc(title)}</title>
      <link>https://arxiv.org/abs/${id}</link>
      <description>arXiv:${id}v${v} Announce Type: ${type} 
Abstract: ${esc(abstract)}</description>
      <guid isPermaLink="false">oai:arXiv.org:${id}v${v}</guid>
${[...new Set(cats)].map((c) => `      <category>${c}</category>`).join('\n')}
      <pubDate>${pub}</pubDate>
      <arxiv:announce_type>${type}</arxiv:announce_type>
      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>
      <dc:creator>${esc(authors.join(', '))}</dc:creator>${r() < 0.05 ? `\n      <arxiv:DOI>10.1234/bench.${i}</arxiv:DOI>` : ''}
    </item>`);
  }

  const channel = 'cs.LG+cs.CL+cs.AI+cs.CV';
  const xml = `<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">
  <channel>
    <title>cs.LG, cs.CL, cs.AI, cs.CV updates on arXiv.org</title>
    <link>http://rss.arxiv.org/rss/${channel}</link>
    <description>cs.LG, cs.CL, cs.AI, cs.CV updates on the arXiv.org e-print archive.</description>
    <atom:link href="http://rss.arxiv.org/rss/${channel}" rel="self" type="application/rss+xml"/>
    <docs>http://www.rssboard.org/rss-specification</docs>
    <language>en-us</language>
    <lastBuildDate>${day.toUTCString().replace('GMT', '+0000')}</lastBuildDate>
    <managingEditor>rss-help@arxiv.org</managingEditor>
    <pubDate>${pub}</pubDate>
    <skipDays>
      <day>Saturday</day>
      <day>Sunday</day>
    </skipDays>
${items.join('\n')}
  </channel>
</rss>
`;
  return { xml, items: opts.items, familyWritten };
}
