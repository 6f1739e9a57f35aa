import { describe, expect, it } from 'vitest';
import { arxivHtmlUrl, parseArxivHtml } from '../../../../src/services/sources/arxiv-html.ts';
import { htmlFixture, PAPER_HTML } from '../../../helpers/arxiv-html.ts';

describe('parseArxivHtml', () => {
  const page = parseArxivHtml(htmlFixture(PAPER_HTML));
  if (page.kind !== 'ok') throw new Error('fixture did not parse');
  const unit = (heading: string) => page.sections.find((s) => s.heading === heading);

  it('reads the title, the abstract and one unit per section, subsection and appendix, headings numbered and nested', () => {
    expect(page.title).toBe('Balanced Clipping for Group Relative Policy Optimization');
    expect(page.sections.map((s) => `${s.kind}: ${s.heading}`)).toEqual([
      'abstract: Abstract',
      'body: 1 Introduction',
      'body: 2 Related Work',
      'body: 3 Method',
      'body: 3 Method › 3.1 Balanced clipping',
      'body: 4 Experiments › 4.1 Experimental setup',
      'body: 4 Experiments › 4.2 Main results',
      'body: 5 Conclusion',
      'body: Acknowledgements',
      'appendix: Appendix A Training details',
    ]);
  });

  it('keeps math as its LaTeX alt text, inline and displayed, without the equation number', () => {
    expect(unit('3 Method › 3.1 Balanced clipping')!.text).toContain(
      'set $\\epsilon_{low}=0.2$ and $\\epsilon_{high}=0.28$, and we remove the KL penalty',
    );
    expect(unit('3 Method')!.text).toContain('$$\\mathcal{J}(\\theta)=\\mathbb{E}\\Big[');
    expect(unit('3 Method')!.text).not.toContain('(1)');
    expect(unit('4 Experiments › 4.1 Experimental setup')!.text).toContain(
      'a learning rate of $1\\times 10^{-6}$ and a batch size of 512 prompts',
    );
  });

  it('turns tables into rows of cells with their caption, and keeps footnotes inline', () => {
    expect(unit('Appendix A Training details')!.text).toContain(
      'Table 3: Hyperparameters of the RL runs.\nHyperparameter | Value\nLearning rate | 1e-6\nRollouts per prompt ($G$) | 16\nClip range $(\\epsilon_{low},\\epsilon_{high})$ | (0.2, 0.28)',
    );
    expect(unit('4 Experiments › 4.2 Main results')!.text).toContain('Method | AIME24 | MATH500\nGRPO | 38.2 | 81.0');
    expect(unit('1 Introduction')!.text).toContain(
      'DeepSeek-R1 [We could not confirm this number from the released code.], which',
    );
  });

  it('leaves out the page chrome, the table of contents, authors, images and the bibliography', () => {
    const all = page.sections.map((s) => s.text).join('\n');
    for (const chrome of [
      'experimental HTML',
      'Back to arXiv',
      'Report Issue',
      'Generated',
      'ada@example.org',
      'Proximal policy optimization algorithms',
      'Refer to caption',
    ]) {
      expect(all).not.toContain(chrome);
    }
  });

  it('reads a 200 stub page and a conversion that failed as no HTML, with the reason', () => {
    expect(parseArxivHtml(htmlFixture('stub-no-html.html'))).toMatchObject({
      kind: 'no-html',
      reason: expect.stringContaining("No HTML for '2611.05555v1'"),
    });
    expect(parseArxivHtml(htmlFixture('conversion-failed.html'))).toEqual({
      kind: 'no-html',
      reason: "arXiv's HTML conversion failed for this version",
    });
  });

  it('keeps no character a stored text cannot hold (NUL, escape sequences, bidi overrides, lone surrogates)', () => {
    const hostile = parseArxivHtml(
      htmlFixture(PAPER_HTML).replace(
        'we remove the KL penalty',
        'we remove\u0000 the \u001b[2JKL\u202e penalty\ud800',
      ),
    );
    if (hostile.kind !== 'ok') throw new Error('fixture did not parse');
    const text = hostile.sections.map((s) => `${s.heading}\n${s.text}`).join('\n');
    expect(text).toContain('we remove the [2JKL penalty');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]|[\ud800-\udbff](?![\udc00-\udfff])/); // eslint-disable-line no-control-regex
  });

  it("keeps no such character in a page's quoted start either: binary noise is stored as no HTML (red team)", () => {
    const noise = parseArxivHtml('\u0000\u0001binary\u001b[2J \u202enoise\ud800');
    expect(noise).toEqual({
      kind: 'no-html',
      reason: 'not a paper: the page has no LaTeXML document ("binary[2J noise")',
    });
  });

  it('survives broken markup and text that is not HTML', () => {
    expect(
      parseArxivHtml(
        '<article class="ltx_document"><section class="ltx_section"><h2 class="ltx_title">1 X</h2><p>unclosed <b>bold',
      ),
    ).toMatchObject({ kind: 'no-html' });
    expect(parseArxivHtml('{"not": "html"}')).toMatchObject({ kind: 'no-html' });
  });

  it('builds the versioned URL under the configured base', () => {
    expect(arxivHtmlUrl('https://arxiv.org/html/', '2507.18071', 2)).toBe('https://arxiv.org/html/2507.18071v2');
    expect(arxivHtmlUrl('http://127.0.0.1:9/html', '2507.18071', null)).toBe('http://127.0.0.1:9/html/2507.18071');
  });
});
