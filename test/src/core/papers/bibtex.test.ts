import { parse } from '@retorquere/bibtex-parser';
import { describe, expect, it } from 'vitest';
import {
  bibtexEntries,
  bibtexEntry,
  bibtexFile,
  type BibtexEntry,
  type CitablePaper,
} from '../../../../src/core/papers/bibtex.ts';
import { citationKey } from '../../../../src/core/papers/bibtex-key.ts';
import { readable } from '../../../../src/core/papers/latex.ts';
import { stripUnsafeChars } from '../../../../src/core/reply.ts';
import { citeReply, historyBibReply } from '../../../../src/core/views/bibtex.ts';

const DEEPSEEKMATH: CitablePaper = {
  arxivId: '2402.03300',
  title: 'DeepSeekMath: Pushing the Limits of Mathematical Reasoning in Open Language Models',
  authors: ['Zhihong Shao', 'Peiyi Wang', 'Qihao Zhu'],
  publishedOn: '2024-02-05',
  categories: ['cs.CL', 'cs.AI', 'cs.LG'],
};

const paper = (over: Partial<CitablePaper>): CitablePaper => ({ ...DEEPSEEKMATH, ...over });

/** Parses with a real BibTeX parser (the one Better BibTeX for Zotero uses), titles as written: every error fails the test. */
function parsed(text: string) {
  const lib = parse(text, { english: false });
  expect(lib.errors).toEqual([]);
  return lib.entries;
}

/** The one entry of a .bib text, with its fields as LaTeX (`raw`) and as text. */
function only(entry: BibtexEntry) {
  const [e] = parsed(bibtexFile([entry]));
  const [raw] = parse(bibtexFile([entry]), { raw: true }).entries;
  expect(e?.key).toBe(entry.key);
  return { e: e!, raw: raw! };
}

/** The commands our escaping writes; any other command in a field came from the paper's text. */
const OUR_COMMANDS =
  /\\(?:textbackslash|textbraceleft|textbraceright|textasciitilde|textasciicircum|textasciigrave)\{\}|\\[&%$#_]/g;

describe('bibtexEntry', () => {
  it("writes an arXiv paper as arXiv's own export does: @misc with eprint, archivePrefix, primaryClass and url", () => {
    const entry = bibtexEntry(DEEPSEEKMATH);
    expect(entry.text).toBe(
      [
        '@misc{shao2024deepseekmath,',
        '  title = {{DeepSeekMath}: Pushing the Limits of Mathematical Reasoning in Open Language Models},',
        '  author = {Zhihong Shao and Peiyi Wang and Qihao Zhu},',
        '  year = {2024},',
        '  eprint = {2402.03300},',
        '  archivePrefix = {arXiv},',
        '  primaryClass = {cs.CL},',
        '  url = {https://arxiv.org/abs/2402.03300}',
        '}',
      ].join('\n'),
    );
    const { e } = only(entry);
    expect(e.type).toBe('misc');
    expect(e.fields).toMatchObject({
      title: DEEPSEEKMATH.title,
      year: '2024',
      eprint: '2402.03300',
      archiveprefix: 'arXiv',
      primaryclass: 'cs.CL',
      url: 'https://arxiv.org/abs/2402.03300',
    });
    expect(e.fields.author).toEqual([
      { firstName: 'Zhihong', lastName: 'Shao' },
      { firstName: 'Peiyi', lastName: 'Wang' },
      { firstName: 'Qihao', lastName: 'Zhu' },
    ]);
  });

  it('writes the venue arXiv knows: a conference as @inproceedings with its booktitle and year, a journal as @article', () => {
    const conf = only(bibtexEntry(paper({ journalRef: 'Accepted at ICLR 2026', doi: '10.48550/arXiv.2402.03300' })));
    expect(conf.e.type).toBe('inproceedings');
    expect(conf.e.fields).toMatchObject({
      booktitle: 'Accepted at ICLR 2026',
      year: '2026',
      eprint: '2402.03300',
      doi: '10.48550/arXiv.2402.03300',
    });
    const journal = only(bibtexEntry(paper({ journalRef: 'Transactions on Machine Learning Research (2025)' })));
    expect(journal.e.type).toBe('article');
    expect(journal.e.fields).toMatchObject({
      journal: 'Transactions on Machine Learning Research (2025)',
      year: '2025',
    });
    // A DOI that is not one (a feed's text) is left out rather than escaped into a link that goes nowhere.
    const badDoi = only(bibtexEntry(paper({ doi: '10.1/x} @misc{y' })));
    expect(badDoi.e.fields.doi).toBeUndefined();
  });

  it('keeps a paper without an arXiv id, authors or date a valid entry', () => {
    const { e } = only(
      bibtexEntry({
        arxivId: null,
        title: 'A Paper Only Its Notes Know',
        authors: [],
        publishedOn: null,
        categories: [],
      }),
    );
    expect(e).toMatchObject({ type: 'misc', key: 'paperonly', fields: { title: 'A Paper Only Its Notes Know' } });
    // A stored id that is no arXiv id is not written as one.
    const odd = only(bibtexEntry(paper({ arxivId: '2402.03300} @misc{x' })));
    expect(odd.e.fields.eprint).toBeUndefined();
    expect(odd.e.fields.url).toBeUndefined();
  });

  it('braces the words whose case BibTeX styles would lower, and only those', () => {
    const entry = bibtexEntry(
      paper({ title: 'GRPO-Zero Is Secretly DeepSeekMath: Qwen3 and R1-Style Test-Time (PPO) Training' }),
    );
    expect(entry.text).toContain(
      'title = {{GRPO}-Zero Is Secretly {DeepSeekMath}: {Qwen3} and {R1}-Style Test-Time ({PPO}) Training}',
    );
    // Sentence-cased as Zotero imports it: the braced words survive, the rest is lowered.
    const [sentence] = parse(bibtexFile([entry])).entries;
    expect(sentence!.fields.title).toMatch(
      /^GRPO-zero is secretly DeepSeekMath: Qwen3 and R1-style test-time \(PPO\) training$/,
    );
  });

  const HOSTILE_TITLES = [
    'Closing } early',
    'Opening { never closed',
    '}}}} @misc{evil, title={owned}} {{',
    'A backslash \\ and \\\\ two',
    'Run \\input{/etc/passwd} and \\end{document}',
    '\\def\\x{} \\catcode`\\^=13',
    '100% of $5 & #1 _under ~tilde ^caret',
    'Backticks ``` close a code block ```',
    'Line\nbreaks\r\nand\ttabs \u0000 and \u202e bidi',
    'An ending backslash \\',
    '%',
  ];

  it.each(HOSTILE_TITLES)('keeps a hostile title inside its field as text: %j', (title) => {
    const entry = bibtexEntry(paper({ title }));
    const { e, raw } = only(entry);
    // The title reads back as the bot shows it everywhere (its LaTeX read as text), nothing else.
    const shown = readable(stripUnsafeChars(title)).replace(/\s+/g, ' ').trim();
    expect(e.fields.title).toBe(shown.replace(/`/g, 'ˋ'));
    // Nothing after the title was swallowed or added: the other fields are all there, and only they.
    expect(Object.keys(e.fields).sort()).toEqual(
      ['archiveprefix', 'author', 'eprint', 'primaryclass', 'title', 'url', 'year'].sort(),
    );
    // No command of the paper's own reaches LaTeX, and no backtick can end a Discord code block.
    expect(raw.fields.title!.replace(OUR_COMMANDS, '')).not.toMatch(/\\/);
    expect(entry.text).not.toContain('`');
  });

  it('keeps hostile author names as one name each, accents as UTF-8', () => {
    const names = [
      'Jürgen Schmidhuber',
      'Tom and Jerry',
      'Smith, John',
      'others',
      'Ann } Bob',
      '\\relax Eve',
      '张三',
      'Łukasz Kaiser',
    ];
    const { e } = only(bibtexEntry(paper({ authors: names })));
    const authors = e.fields.author!;
    expect(authors).toHaveLength(names.length);
    expect(authors[0]).toEqual({ firstName: 'Jürgen', lastName: 'Schmidhuber' });
    expect(authors.slice(1, 4)).toEqual([{ name: 'Tom and Jerry' }, { name: 'Smith, John' }, { name: 'others' }]);
    expect(authors[4]).toEqual({ firstName: 'Ann }', lastName: 'Bob' });
    expect(authors[5]).toEqual({ firstName: '\\relax', lastName: 'Eve' });
    expect(authors[6]).toEqual({ lastName: '张三' });
    expect(authors[7]).toEqual({ firstName: 'Łukasz', lastName: 'Kaiser' });
  });

  it('reads a hostile venue as text', () => {
    const { e } = only(bibtexEntry(paper({ journalRef: 'NeurIPS } 2025, booktitle={x' })));
    expect(e.fields.booktitle).toBe('NeurIPS } 2025, booktitle={x');
  });
});

describe('citation keys', () => {
  it('are surname, year and first significant title word, folded to ASCII', () => {
    expect(citationKey(DEEPSEEKMATH)).toBe('shao2024deepseekmath');
    expect(citationKey(paper({ authors: ['Jürgen Schmidhuber'], title: 'On the Müller–Straße of GRPO' }))).toBe(
      'schmidhuber2024muller',
    );
    expect(citationKey(paper({ authors: ['Łukasz Kaiser Jr.'], title: 'Towards a $\\beta$-Free RL' }))).toBe(
      'kaiser2024free',
    );
    // No author: two title words first; no date: the arXiv id's month; nothing at all: the arXiv id.
    expect(
      citationKey(paper({ authors: [], publishedOn: null, arxivId: '2507.18071', title: 'On Group Sequence Policy' })),
    ).toBe('groupsequence2025');
    expect(citationKey(paper({ authors: ['张三'], title: '群组序列', publishedOn: null, arxivId: '2507.18071' }))).toBe(
      'arxiv250718071',
    );
  });

  it('are unique within one export: the first paper keeps the key, the next get a, b', () => {
    const keys = bibtexEntries([
      DEEPSEEKMATH,
      paper({ arxivId: '2402.99999' }),
      DEEPSEEKMATH,
      paper({ title: 'Other' }),
    ]).map((e) => e.key);
    expect(keys).toEqual(['shao2024deepseekmath', 'shao2024deepseekmatha', 'shao2024deepseekmathb', 'shao2024other']);
    expect(keys.every((k) => /^[a-z0-9]+$/.test(k))).toBe(true);
  });
});

describe('BibTeX in chat', () => {
  it('answers a short entry as a bibtex code block within Discord’s 2,000 characters', () => {
    const reply = citeReply(bibtexEntry(DEEPSEEKMATH));
    expect(reply.content).toMatch(/^```bibtex\n@misc\{shao2024deepseekmath,\n[\s\S]+\n\}\n```$/);
    expect(reply.files).toBeUndefined();
    expect(parsed(reply.content!.slice('```bibtex\n'.length, -3))).toHaveLength(1);
  });

  it('attaches an entry too long for a message as a .bib file that parses', () => {
    const authors = Array.from({ length: 150 }, (_, i) => `Author${i} Surname${i}`);
    const reply = citeReply(bibtexEntry(paper({ authors })));
    expect(reply.content!.length).toBeLessThanOrEqual(2000);
    expect(reply.content).toContain('surname02024deepseekmath.bib');
    const file = reply.files![0]!;
    expect(file.name).toBe('surname02024deepseekmath.bib');
    const [e] = parsed(new TextDecoder().decode(file.data));
    expect(e!.fields.author).toHaveLength(150);
  });

  it('attaches the reading group history as one file of unique keys', () => {
    const reply = historyBibReply(bibtexEntries([DEEPSEEKMATH, DEEPSEEKMATH]));
    expect(reply.files![0]!.name).toBe('reading-group-history.bib');
    expect(parsed(new TextDecoder().decode(reply.files![0]!.data)).map((e) => e.key)).toEqual([
      'shao2024deepseekmath',
      'shao2024deepseekmatha',
    ]);
  });
});
