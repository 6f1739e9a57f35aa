import { describe, expect, it } from 'vitest';
import { paperLinks } from '../../../../src/core/papers/links.ts';

const labels = (githubUrl: string | null, projectPage: string | null) =>
  paperLinks({ arxivId: '2611.00001', title: 't', githubUrl, projectPage }).list.map((l) => `${l.label} ${l.url}`);

describe('paperLinks', () => {
  it('shows code and project links only on known hosts, never on anonymous free hosting', () => {
    expect(labels('https://github.com/a/b', 'https://a.github.io/b/')).toEqual(
      expect.arrayContaining(['Code https://github.com/a/b', 'Project page https://a.github.io/b/']),
    );
    expect(labels(null, 'https://nlp.cs.example.edu/grpo')).toContain('Project page https://nlp.cs.example.edu/grpo');
    for (const page of [
      'https://grpo-paper.netlify.app/',
      'https://grpo.vercel.app/',
      'https://grpo.pages.dev/',
      'https://x.notion.site/GRPO',
      'https://sites.google.com/view/grpo',
      'https://grpo.readthedocs.io/',
      'https://github.com.evil.example/',
      'javascript:alert(1)',
    ])
      expect(
        labels(page, page).filter((l) => /^(Code|Project page) /.test(l)),
        page,
      ).toEqual([]);
  });
});
