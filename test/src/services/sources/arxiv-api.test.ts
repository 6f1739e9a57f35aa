import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QUERY_TERMS } from '../../../../src/core/papers/lexicon.ts';
import {
  arxivApiUrl,
  familyQuery,
  parseArxivApi,
  scopedQuery,
  titleQuery,
} from '../../../../src/services/sources/arxiv-api.ts';
import { FeedError } from '../../../../src/core/papers/candidate.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/feeds/${name}`, import.meta.url), 'utf8');

describe('parseArxivApi', () => {
  it('reads a current-serializer page: entries and opensearch totals as numbers', async () => {
    const feed = await parseArxivApi(fixture('arxiv-api-family.xml'));
    expect(feed.meta).toEqual({ totalResults: 41, startIndex: 0, itemsPerPage: 3 });
    expect(feed.skipped).toEqual([]);
    expect(feed.candidates.map((c) => c.externalId)).toEqual(['2603.00841v2', 'hep-th/0601001v2', '2602.07719v1']);
  });

  it('fills every field of an entry with a DOI and a comment', async () => {
    const [grpo] = (await parseArxivApi(fixture('arxiv-api-family.xml'))).candidates;
    expect(grpo).toMatchObject({
      source: 'arxiv-api',
      externalId: '2603.00841v2',
      arxivId: '2603.00841',
      version: 2,
      title: 'Advantage Shaping for Group Relative Policy Optimization: When Every Rollout Agrees',
      authors: ['Yuki Sato', 'Daniel Ferreira', 'Amara Nwosu'],
      categories: ['cs.LG', 'cs.CL'],
      publishedOn: '2026-02-27',
      doi: '10.48550/example.2603.00841',
      comment: 'Accepted at ICLR 2026. Code: https://github.com/example-lab/shaped-grpo',
    });
    expect(grpo?.abstract).toMatch(/^GRPO normalises rewards/);
    expect(grpo?.abstract).toContain('bonus. On AIME 2024');
    expect(grpo?.announceType).toBeUndefined();
  });

  it('keeps old-style ids and decodes numeric entities in names', async () => {
    const old = (await parseArxivApi(fixture('arxiv-api-family.xml'))).candidates[1];
    expect(old).toMatchObject({
      arxivId: 'hep-th/0601001',
      version: 2,
      authors: ['Tomás Ibarra'],
      categories: ['hep-th', 'gr-qc'],
      publishedOn: '2006-01-02',
    });
  });

  it('puts the primary category first and drops ACM and MSC codes', async () => {
    const acm = (await parseArxivApi(fixture('arxiv-api-family.xml'))).candidates[2];
    expect(acm?.categories).toEqual(['cs.CL', 'cs.LG']);
    expect(acm?.journalRef).toBe('Findings of EACL 2026');
    expect(acm?.doi).toBeUndefined();
    expect(acm?.comment).toBeUndefined();
  });

  it('reads the old serializer: xmlns on every element, leading spaces and hard wraps, offset times', async () => {
    const feed = await parseArxivApi(fixture('arxiv-api-old-serializer.xml'));
    expect(feed.meta).toEqual({ totalResults: 7, startIndex: 0, itemsPerPage: 1 });
    expect(feed.candidates).toHaveLength(1);
    expect(feed.candidates[0]).toMatchObject({
      externalId: '2405.11893v1',
      arxivId: '2405.11893',
      version: 1,
      title: 'Leave-One-Out Baselines for Critic-Free Reinforcement Learning from Verifiable Rewards',
      abstract:
        'REINFORCE with a leave-one-out baseline (RLOO) needs no value network. We compare it with PPO and GRPO on code generation with unit-test rewards and find RLOO within one point of PPO at half the memory.',
      authors: ['Nikolai Petrov', 'Chloé Laurent'],
      categories: ['cs.LG', 'stat.ML'],
      comment: '9 pages, 4 figures',
      // 22:31 at -04:00 is the next day in UTC; `published` dates are UTC dates.
      publishedOn: '2024-05-21',
    });
  });

  it('throws FeedError with the summary of an API error entry', async () => {
    const attempt = parseArxivApi(fixture('arxiv-api-error.xml'));
    await expect(attempt).rejects.toBeInstanceOf(FeedError);
    await expect(attempt).rejects.toThrow('arXiv API error: incorrect id format for 2603.123');
  });

  it('returns no candidates for a feed with no entries', async () => {
    const empty = fixture('arxiv-api-error.xml')
      .replace(/<entry>[\s\S]*<\/entry>/, '')
      .replace('<opensearch:totalResults>1<', '<opensearch:totalResults>0<');
    const feed = await parseArxivApi(empty);
    expect(feed).toEqual({ candidates: [], skipped: [], meta: { totalResults: 0, startIndex: 0, itemsPerPage: 10 } });
  });

  it("keeps every good entry of a complete page where one entry's markup is broken, skipping that one by id", async () => {
    const page = fixture('arxiv-api-family.xml');
    const titles = [...page.matchAll(/<entry>[\s\S]*?<title>([^<]*)<\/title>/g)].map((m) => m[1]!);
    const broken = page.replace(`<title>${titles[1]}</title>`, `<title>Unclosed <b> ${titles[1]}</title>`);
    const feed = await parseArxivApi(broken);
    expect(feed.candidates.map((c) => c.externalId)).toEqual(['2603.00841v2', '2602.07719v1']);
    expect(feed.skipped).toEqual([
      { reason: 'unreadable entry (Unexpected close tag)', externalId: expect.stringContaining('hep-th/0601001v2') },
    ]);
    expect(feed.meta).toEqual({ totalResults: 41, startIndex: 0, itemsPerPage: 3 });
    // The same page cut short fails its feed: its missing entries would be lost behind the cursor.
    await expect(parseArxivApi(broken.slice(0, broken.lastIndexOf('</feed>')))).rejects.toThrow(/unreadable feed/);
  });

  it.each([
    ['a blank 200 body', '', /empty response body/],
    ['an HTML page', fixture('arxiv-unavailable.html'), /not an Atom feed \(an HTML page of [\d,]+ bytes\)$/],
    ['plain text', 'Rate exceeded.', /not an Atom feed/],
    ['truncated XML', fixture('arxiv-api-family.xml').slice(0, 900), /unreadable feed/],
    ['an RSS document', fixture('arxiv-rss-empty.xml'), /not an Atom feed/],
  ])('throws FeedError for %s', async (_what, body, message) => {
    const attempt = parseArxivApi(body);
    await expect(attempt).rejects.toBeInstanceOf(FeedError);
    await expect(attempt).rejects.toThrow(message);
  });
});

describe('familyQuery', () => {
  const q = familyQuery(QUERY_TERMS, {
    categories: ['cs.LG', 'cs.CL'],
    from: new Date('2026-01-01T00:00:00Z'),
    to: new Date('2026-01-02T23:59:00Z'),
  });

  it('ORs every lexicon term over title and abstract', () => {
    expect(q.startsWith('(ti:')).toBe(true);
    expect(q).toContain('ti:GRPO OR abs:GRPO');
    expect(q).toContain('ti:"group relative policy optimization" OR abs:"group relative policy optimization"');
    // Two fields per term joined by 2n - 1 ORs, plus the one between the two categories.
    expect(q.match(/ OR /g)).toHaveLength(2 * new Set(QUERY_TERMS).size - 1 + 1);
  });

  it('quotes phrases and any term with punctuation, and leaves single plain words bare', () => {
    expect(familyQuery(['GSPO', 'REINFORCE++', 'R1-Zero', 'verifiable  rewards', 'say "hi"'])).toBe(
      '(ti:GSPO OR abs:GSPO OR ti:"REINFORCE++" OR abs:"REINFORCE++" OR ti:"R1-Zero" OR abs:"R1-Zero" OR ' +
        'ti:"verifiable rewards" OR abs:"verifiable rewards" OR ti:"say hi" OR abs:"say hi")',
    );
  });

  it('ANDs the term group with the categories and a GMT minute window', () => {
    expect(q.endsWith(') AND (cat:cs.LG OR cat:cs.CL) AND submittedDate:[202601010000 TO 202601022359]')).toBe(true);
    expect(q.match(/ AND /g)).toHaveLength(2);
  });

  it('leaves out the parts it is not given and closes an open date range', () => {
    expect(familyQuery(['GRPO'])).toBe('(ti:GRPO OR abs:GRPO)');
    expect(familyQuery(['GRPO'], { from: new Date('2025-12-31T23:30:00-05:00') })).toBe(
      '(ti:GRPO OR abs:GRPO) AND submittedDate:[202601010430 TO 999912312359]',
    );
  });

  it('refuses an empty term list', () => {
    expect(() => familyQuery([])).toThrow(RangeError);
  });
});

describe('scopedQuery', () => {
  it("AND-s a user's own expression with the categories and the window", () => {
    const q = scopedQuery('abs:"policy optimization" OR ti:RLOO', {
      categories: ['cs.LG'],
      from: new Date('2025-10-01T00:00:00Z'),
      to: new Date('2025-10-03T23:59:00Z'),
    });
    expect(q).toBe(
      '(abs:"policy optimization" OR ti:RLOO) AND (cat:cs.LG) AND submittedDate:[202510010000 TO 202510032359]',
    );
  });
});

describe('titleQuery', () => {
  it('searches the exact title words, keeping only letters, digits and spaces', () => {
    expect(titleQuery('Flow-GRPO: Training "Flow Matching" Models via Online RL')).toBe(
      'ti:"Flow GRPO Training Flow Matching Models via Online RL"',
    );
    expect(titleQuery('$\\pi$-GSPO: \\textit{Stable} (MoE) RL')).toBe('ti:"pi GSPO textit Stable MoE RL"');
  });

  it('refuses a title with nothing searchable', () => {
    expect(() => titleQuery(' "::" ')).toThrow(RangeError);
  });
});

describe('arxivApiUrl', () => {
  it('encodes the query with URLSearchParams and sets paging and sorting', () => {
    const url = new URL(
      arxivApiUrl('https://export.arxiv.org/api/query', {
        searchQuery: '(ti:GRPO OR abs:"REINFORCE++") AND cat:cs.LG',
        start: 200,
        maxResults: 100,
        sortBy: 'submittedDate',
        sortOrder: 'descending',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://export.arxiv.org/api/query');
    expect(url.searchParams.get('search_query')).toBe('(ti:GRPO OR abs:"REINFORCE++") AND cat:cs.LG');
    expect(url.search).toContain('REINFORCE%2B%2B');
    expect(url.searchParams.get('start')).toBe('200');
    expect(url.searchParams.get('max_results')).toBe('100');
    expect(url.searchParams.get('sortBy')).toBe('submittedDate');
    expect(url.searchParams.get('sortOrder')).toBe('descending');
    expect(url.searchParams.has('id_list')).toBe(false);
  });

  it('joins an id list with commas', () => {
    expect(arxivApiUrl('https://export.arxiv.org/api/query', { idList: ['2603.00841v2', 'hep-th/0601001'] })).toBe(
      'https://export.arxiv.org/api/query?id_list=2603.00841v2%2Chep-th%2F0601001',
    );
  });
});
