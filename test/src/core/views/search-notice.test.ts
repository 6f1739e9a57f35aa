import { describe, expect, it } from 'vitest';
import { correctedQuery, correctionNotice } from '../../../../src/core/views/search-notice.ts';

describe('correctionNotice', () => {
  it('shows the query as searched and how to search the word as typed', () => {
    expect(correctionNotice('Quote of the week', [{ typed: 'quote', shown: 'quite' }])).toBe(
      'Showing results for **quite of the week** (no paper has "quote"). Search instead for "quote": put the word in quotes.',
    );
  });

  it('says nothing when nothing was corrected', () => {
    expect(correctionNotice('entropy collapse', [])).toBeUndefined();
  });

  it('replaces whole words only, every correction', () => {
    expect(
      correctedQuery('grup sequense grupo', [
        { typed: 'grup', shown: 'group' },
        { typed: 'sequense', shown: 'sequence' },
      ]),
    ).toBe('group sequence grupo');
  });
});
