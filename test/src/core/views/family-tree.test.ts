import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../../src/core/papers/families.ts';
import { treeFamilies } from '../../../../src/core/pictures/family-tree.ts';
import { familyTreeReply } from '../../../../src/core/views/family-tree.ts';

describe('the family tree as text', () => {
  const footer = (counts: Map<string, { total: number; thisMonth: number }>) =>
    familyTreeReply({ families: treeFamilies(FAMILIES, counts), month: 'November 2026' }).embeds![0]!.footer;

  it('explains "new" when a family has new papers, and says none is new when none is', () => {
    expect(footer(new Map([['GRPO', { total: 59, thisMonth: 2 }]]))).toContain(
      '"new" = announced in November 2026 (UTC).',
    );
    const none = footer(new Map([['GRPO', { total: 59, thisMonth: 0 }]]));
    expect(none).not.toContain('"new"');
    expect(none).toContain('no member announced in November 2026 (UTC) yet.');
  });
});
