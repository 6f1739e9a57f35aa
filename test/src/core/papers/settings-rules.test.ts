import { describe, expect, it } from 'vitest';
import {
  sectionsText,
  selectSections,
  usefulSections,
  type TextSection,
} from '../../../../src/core/papers/paper-text.ts';
import { extractSettings, normaliseNumber } from '../../../../src/core/papers/settings-rules.ts';
import { keepEvidenced, tellingLine, type Setting } from '../../../../src/core/papers/settings.ts';
import { parseArxivHtml } from '../../../../src/services/sources/arxiv-html.ts';
import { htmlFixture, PAPER_HTML } from '../../../helpers/arxiv-html.ts';

const page = parseArxivHtml(htmlFixture(PAPER_HTML));
const sections = page.kind === 'ok' ? page.sections : [];
const body = (heading: string, text: string): TextSection => ({ heading, kind: 'body', text });

describe('extractSettings', () => {
  it('finds what the paper states plainly, each with a quote from its own setup, never from related work or the introduction', () => {
    const found = Object.fromEntries(extractSettings(sections).map((s) => [s.key, s.value]));
    expect(found).toEqual({
      base_model: 'Qwen2.5-Math-7B',
      group_size: '16',
      clip_eps_low: '0.2',
      clip_eps_high: '0.28',
      kl_coef: '0',
      loss_aggregation: 'token-level (over all tokens in the batch)',
      advantage_norm: 'group mean and std',
      length_handling: 'overlong filtering (truncated responses masked)',
      max_response_length: '8192',
      reward: 'rule-based, Math-Verify, binary 1/0',
      datasets: 'DAPO-Math-17k',
      learning_rate: '1e-6',
      batch_size: '512',
      steps: '500',
    });
    // The introduction's "group size of 64" and related work's "learning rate of 3e-4" are other papers'.
    expect(keepEvidenced(extractSettings(sections), sectionsText(sections)).dropped).toEqual([]);
  });

  it('reads sentences in the forms papers write them', () => {
    const get = (text: string) =>
      Object.fromEntries(extractSettings([body('4 Experimental Setup', text)]).map((s) => [s.key, s.value]));
    expect(get('We sample 8 rollouts for each question and use a KL coefficient of 0.001.')).toMatchObject({
      group_size: '8',
      kl_coef: '0.001',
    });
    expect(get('We set $\\varepsilon_{low}$ and $\\varepsilon_{high}$ to 0.2 and 0.28, respectively.')).toMatchObject({
      clip_eps_low: '0.2',
      clip_eps_high: '0.28',
    });
    expect(get('The learning rate is $5\\times 10^{-7}$ with a group size $G=64$.')).toMatchObject({
      learning_rate: '5e-7',
      group_size: '64',
    });
    expect(get('Following DAPO, we drop the KL term and use sequence-level importance ratios.')).toMatchObject({
      kl_coef: '0 (no KL term)',
      is_level: 'sequence',
    });
    expect(
      get(
        'Advantages are computed without the standard deviation term, and the rollout batch size is 1,024 responses.',
      ),
    ).toMatchObject({ advantage_norm: 'group mean only (no std)', batch_size: '1024 responses' });
    expect(get('An evaluation run generates up to 32,768 tokens.')).toMatchObject({ max_response_length: '32768' });
    expect(get('Results after 200 steps look similar.')).toEqual({});
  });

  it('keeps no punctuation from the sentence a value ends', () => {
    const found = extractSettings([
      body(
        '4 Experimental Setup',
        'During training, we set the rollout batch size to 128, and set ϵhigh as 0.28. We use a clipping width of 0.2.',
      ),
    ]);
    expect(Object.fromEntries(found.map((s) => [s.key, s.value]))).toMatchObject({
      batch_size: '128',
      clip_eps_high: '0.28',
      clip_eps_low: '0.2',
    });
  });

  it('writes numbers the short way', () => {
    expect(['1\\times 10^{-6}', '5 × 10^{−7}', '3e-6', '8,192', '0.28'].map(normaliseNumber)).toEqual([
      '1e-6',
      '5e-7',
      '3e-6',
      '8192',
      '0.28',
    ]);
  });
});

describe('keepEvidenced', () => {
  const text = 'We sample 16 responses per prompt. The KL coefficient is 0.001.';
  it('drops a setting whose quote is not in the text, a quote too short to prove anything, and a second value for one setting', () => {
    const items: Setting[] = [
      { key: 'group_size', value: '16', evidence: 'We sample 16   responses per prompt.' },
      { key: 'learning_rate', value: '1e-6', evidence: 'We use a learning rate of 1e-6.' },
      { key: 'kl_coef', value: '0.001', evidence: '0.001' },
      { key: 'group_size', value: '8', evidence: 'We sample 16 responses per prompt.' },
    ];
    const { kept, dropped } = keepEvidenced(items, text);
    expect(kept).toEqual([{ key: 'group_size', value: '16', evidence: 'We sample 16 responses per prompt.' }]);
    expect(dropped.map((d) => d.key)).toEqual(['learning_rate', 'kl_coef', 'group_size']);
  });

  it('accepts a quote that differs only in spacing, case, typographic dashes or escapes', () => {
    const latex = 'we set $\\epsilon_{high}=0.28$ – a clip-higher bound';
    expect(
      keepEvidenced(
        [{ key: 'clip_eps_high', value: '0.28', evidence: 'We set $\\\\epsilon_{high} = 0.28$ - a clip-higher bound' }],
        latex,
      ).kept,
    ).toHaveLength(1);
  });
});

describe('tellingLine and selectSections', () => {
  it('says the most telling settings in a few characters', () => {
    expect(tellingLine(extractSettings(sections))).toBe('G=16 · ε 0.2/0.28 · no KL');
    expect(
      tellingLine([
        { key: 'is_level', value: 'sequence', evidence: '' },
        { key: 'kl_coef', value: '0.04', evidence: '' },
      ]),
    ).toBe('KL 0.04 · sequence-level IS');
    expect(tellingLine([])).toBeUndefined();
  });

  it('keeps the units that matter within a size, in document order, and leaves out acknowledgements', () => {
    const useful = usefulSections(sections);
    expect(useful.map((s) => s.heading)).not.toContain('Acknowledgements');
    expect(useful.map((s) => s.heading)).not.toContain('2 Related Work');
    const { sections: chosen, truncated } = selectSections(useful, 1200);
    expect(truncated).toBe(true);
    expect(chosen.map((s) => s.heading)).toEqual([
      'Abstract',
      '4 Experiments › 4.1 Experimental setup',
      'Appendix A Training details',
    ]);
  });
});
