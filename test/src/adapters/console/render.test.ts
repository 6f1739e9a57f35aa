import { describe, expect, it } from 'vitest';
import { renderReply } from '../../../../src/adapters/console/render.ts';
import { bibFile } from '../../../../src/core/views/bibtex.ts';

describe('console renderReply', () => {
  it('shows an attached file that is no picture by its saved path and size, not as a PNG', () => {
    const file = bibFile('reading-group-history', '@misc{a,\n  title = {A}\n}\n', 'BibTeX entries of 1 papers read');
    const text = renderReply(
      { content: 'The history:', files: [file] },
      72,
      new Map([[file.name, '/data/pictures/reading-group-history.bib']]),
    );
    expect(text).toBe('The history:\n📎 /data/pictures/reading-group-history.bib (25 bytes)');
  });
});
