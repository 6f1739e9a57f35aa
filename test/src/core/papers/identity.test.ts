import { describe, expect, it } from 'vitest';
import { arxivAbsUrl, arxivPdfUrl, hfPaperUrl, parseArxivId, titleKey } from '../../../../src/core/papers/identity.ts';

describe('parseArxivId', () => {
  it('returns the id without a version when given a bare new-style id', () => {
    expect(parseArxivId('2507.18071')).toEqual({ id: '2507.18071' });
  });

  it('splits off the version when the id carries one', () => {
    expect(parseArxivId('2507.18071v2')).toEqual({ id: '2507.18071', version: 2 });
  });

  it('accepts the arXiv: prefix in any case and surrounding whitespace', () => {
    expect(parseArxivId('arXiv:2507.18071')).toEqual({ id: '2507.18071' });
    expect(parseArxivId('  ARXIV: 2504.16084v3 ')).toEqual({ id: '2504.16084', version: 3 });
  });

  it('accepts old-style ids with and without a subject class', () => {
    expect(parseArxivId('cs/0112017v1')).toEqual({ id: 'cs/0112017', version: 1 });
    expect(parseArxivId('hep-th/9901001')).toEqual({ id: 'hep-th/9901001' });
    expect(parseArxivId('math.AG/0309136')).toEqual({ id: 'math.AG/0309136' });
  });

  it('reads abs and pdf links, with or without version and .pdf suffix', () => {
    expect(parseArxivId('https://arxiv.org/abs/2507.18071')).toEqual({ id: '2507.18071' });
    expect(parseArxivId('http://arxiv.org/pdf/2504.16084v2')).toEqual({ id: '2504.16084', version: 2 });
    expect(parseArxivId('https://arxiv.org/pdf/2505.11404v1.pdf')).toEqual({ id: '2505.11404', version: 1 });
    expect(parseArxivId('https://www.arxiv.org/abs/cs/0112017v1/')).toEqual({ id: 'cs/0112017', version: 1 });
    expect(parseArxivId('https://arxiv.org/abs/2507.18071?context=cs')).toEqual({ id: '2507.18071' });
  });

  it('reads Hugging Face paper pages', () => {
    expect(parseArxivId('https://huggingface.co/papers/2507.18071')).toEqual({ id: '2507.18071' });
    expect(parseArxivId('huggingface.co/papers/2507.01006/')).toEqual({ id: '2507.01006' });
  });

  it('rejects junk, impossible months, wrong number lengths and v0', () => {
    for (const junk of [
      '',
      'GSPO',
      '2507',
      '2507.1807', // four digits after 2014
      '1412.12345', // five digits before 2015
      '2513.18071', // month 13
      '0612.1234', // new scheme did not exist yet
      '2507.18071v0',
      'https://github.com/2507.18071',
      'https://arxiv.org/abs/',
      'cs/0112017x',
      'cs/5012017', // old scheme never used 2050
    ]) {
      expect(parseArxivId(junk), junk).toBeNull();
    }
  });
});

describe('arxiv and hf urls', () => {
  it('builds canonical links, with the version only when given', () => {
    expect(arxivAbsUrl('2507.18071')).toBe('https://arxiv.org/abs/2507.18071');
    expect(arxivPdfUrl('2507.18071')).toBe('https://arxiv.org/pdf/2507.18071');
    expect(arxivPdfUrl('2507.18071', 2)).toBe('https://arxiv.org/pdf/2507.18071v2');
    expect(hfPaperUrl('2507.18071')).toBe('https://huggingface.co/papers/2507.18071');
  });

  it('round-trips through parseArxivId', () => {
    expect(parseArxivId(arxivPdfUrl('cs/0112017', 1))).toEqual({ id: 'cs/0112017', version: 1 });
    expect(parseArxivId(hfPaperUrl('2507.18071'))).toEqual({ id: '2507.18071' });
  });
});

describe('titleKey', () => {
  it('folds case, punctuation and whitespace when two sources type a title differently', () => {
    expect(titleKey('Think or Not? Selective Reasoning via RL for Vision-Language Models')).toBe(
      titleKey('think or not -- selective reasoning via  RL for vision language models.'),
    );
  });

  it('folds LaTeX markup, superscripts and ampersands', () => {
    expect(titleKey('MAS$^2$: Self-Generative Multi-Agent Systems')).toBe(
      titleKey('MAS²: Self-Generative Multi-Agent Systems'),
    );
    expect(titleKey('\\textbf{O$^2$-Searcher}')).toBe(titleKey('O2-Searcher'));
    expect(titleKey('Agents for 2D&3D Worlds')).toBe(titleKey('Agents for 2D and 3D Worlds'));
  });

  it('folds diacritics and full-width forms', () => {
    expect(titleKey('Schrödinger Bridges')).toBe(titleKey('Schrodinger bridges'));
    expect(titleKey('ＧＲＰＯ：Ａ Study')).toBe(titleKey('GRPO: A Study'));
  });

  it('keeps different papers apart when they share the acronym before the colon', () => {
    const earlyExit = titleKey('S-GRPO: Early Exit via Reinforcement Learning in Reasoning Models');
    const unified = titleKey('S-GRPO: Unified Post-Training for Large Vision-Language Models');
    expect(earlyExit).not.toBe(unified);
  });

  it('keeps CJK titles as letters rather than dropping them', () => {
    expect(titleKey('群组序列策略优化')).toBe('群组序列策略优化');
  });
});
