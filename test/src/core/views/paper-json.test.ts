import { describe, expect, it } from 'vitest';
import { exportedPaper, paperJson } from '../../../../src/core/views/paper-json.ts';

describe("a paper's authors in JSON (show --json, search --json, export)", () => {
  it('says unknown (null) when a source counted authors without naming them, in every JSON output alike', () => {
    expect(paperJson({ title: 't', authors: [], authorCount: 8 }).authors).toBeNull();
    expect(exportedPaper({ title: 't', authors: [], author_count: 8 }).authors).toBeNull();
  });

  it('keeps the names when there are some, and an empty list when nobody counted any', () => {
    expect(paperJson({ title: 't', authors: ['A. B.'], authorCount: 1 }).authors).toEqual(['A. B.']);
    expect(exportedPaper({ title: 't', authors: [], author_count: null }).authors).toEqual([]);
  });
});
