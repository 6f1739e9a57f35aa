import { describe, expect, it } from 'vitest';
import { paperDate } from '../../../../src/core/papers/date.ts';

describe('paperDate', () => {
  it('shows a day as a day, a month-only date (stored as the 1st) as its month, and an undated paper by its arXiv id month', () => {
    expect(paperDate({ publishedOn: '2025-09-26', arxivId: '2509.21826' })).toBe('2025-09-26');
    expect(paperDate({ publishedOn: '2025-09-01', arxivId: '2509.24923' })).toBe('2025-09');
    expect(paperDate({ publishedOn: null, arxivId: '2507.18071' })).toBe('2025-07');
    expect(paperDate({ publishedOn: null, arxivId: 'hep-th/9901001' })).toBe('1999-01');
    expect(paperDate({ publishedOn: null, arxivId: null })).toBeUndefined();
  });
});
