import { describe, expect, it } from 'vitest';
import { paperCard } from '../../../../src/core/digest/card.ts';
import { labelsFor } from '../../../../src/core/digest/labels.ts';
import { NOW, paper } from './build.ts';

describe("a digest card's citation counts", () => {
  it('are in the footer when Semantic Scholar gave them, with their date, and absent otherwise', () => {
    const cited = paperCard(
      paper(1, { citations: { citationCount: 1234, influentialCount: 56, fetchedAt: NOW } }),
      undefined,
      labelsFor('en'),
      'en',
    );
    expect(cited.embed.footer).toContain('Cited by 1,234 (56 influential) · as of 2026-11-21');
    const zh = paperCard(
      paper(1, { citations: { citationCount: 1234, influentialCount: 56, fetchedAt: NOW } }),
      undefined,
      labelsFor('zh'),
      'zh',
    );
    expect(zh.embed.footer).toContain('被引 1,234 次（56 次有影响力）· 截至 2026-11-21');
    const unknown = paperCard(paper(2, { citations: null }), undefined, labelsFor('en'), 'en');
    expect(unknown.embed.footer).not.toContain('Cited by');
  });
});
