import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { arxivRssPages, arxivRssUrl, easternDate, parseArxivRss } from '../../../../src/services/sources/arxiv-rss.ts';
import { cleanAuthorName, decodeLatexAccents, splitCreators } from '../../../../src/services/sources/authors.ts';
import { FeedError } from '../../../../src/core/papers/candidate.ts';
import { rssFeed } from '../../../helpers/feed-builders.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/feeds/${name}`, import.meta.url), 'utf8');

describe('parseArxivRss', () => {
  it('turns every listing of a combined cs.LG+cs.CL feed into a candidate and reads the channel', async () => {
    const feed = await parseArxivRss(fixture('arxiv-rss-cs-lg-cl.xml'));
    expect(feed.skipped).toEqual([]);
    expect(feed.candidates.map((c) => [c.externalId, c.announceType])).toEqual([
      ['2603.01187v1', 'new'],
      ['2603.01342v1', 'new'],
      ['2602.11873v1', 'cross'],
      ['2509.20417v3', 'replace'],
      ['2411.08256v2', 'replace-cross'],
    ]);
    expect(feed.meta).toEqual({
      title: 'cs.LG, cs.CL updates on arXiv.org',
      pubDate: '2026-03-02T05:00:00.000Z',
      lastBuildDate: '2026-03-02T05:00:11.000Z',
    });
  });

  it('fills every candidate field from a new listing', async () => {
    const [grpo] = (await parseArxivRss(fixture('arxiv-rss-cs-lg-cl.xml'))).candidates;
    expect(grpo).toMatchObject({
      source: 'arxiv-rss',
      externalId: '2603.01187v1',
      arxivId: '2603.01187',
      version: 1,
      title: 'Adaptive Group Sizes for Group Relative Policy Optimization in Mathematical Reasoning',
      authors: ['Ana Martínez', 'Stéphane Dubois', 'Wei Chen', 'João Silva'],
      categories: ['cs.LG', 'cs.AI', 'cs.CL'],
      announceType: 'new',
      publishedOn: '2026-03-02',
    });
    expect(grpo?.doi).toBeUndefined();
    expect(grpo?.raw).toBeDefined();
  });

  it('strips the "arXiv:... Announce Type: ... Abstract:" prefix and keeps < and > that contentSnippet would eat', async () => {
    const [grpo] = (await parseArxivRss(fixture('arxiv-rss-cs-lg-cl.xml'))).candidates;
    expect(grpo?.abstract.startsWith('Group Relative Policy Optimization (GRPO) estimates')).toBe(true);
    expect(grpo?.abstract).toContain('(n < 10)');
    expect(grpo?.abstract).toContain('L(x) > 0 only');
    // The paragraph break ("\n  ") is collapsed to one space like every other run of whitespace.
    expect(grpo?.abstract).toContain('non-zero variance. On MATH-500');
    expect(grpo?.abstract).not.toMatch(/Announce Type|arXiv:2603/);
  });

  it('never reads contentSnippet, which deletes everything between < and >', () => {
    const source = readFileSync(new URL('../../../../src/services/sources/arxiv-rss.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/\.contentSnippet\b|\[['"]contentSnippet['"]\]/);
  });

  it('keeps LaTeX in titles as is and decodes entities', async () => {
    const { candidates } = await parseArxivRss(fixture('arxiv-rss-cs-lg-cl.xml'));
    expect(candidates[1]?.title).toBe(
      '$\\pi$-GSPO: Sequence-Level Importance Ratios for \\textit{Stable} Mixture-of-Experts RL',
    );
    expect(candidates[4]?.title).toBe('Reward Models & Verifiers for Language Model Alignment: A Survey');
  });

  it('decodes TeX accents in dc:creator and does not split affiliations into authors', async () => {
    const { candidates } = await parseArxivRss(fixture('arxiv-rss-cs-lg-cl.xml'));
    expect(candidates[1]?.authors).toEqual(['Li Wei', 'Hannah Müller', 'René Dupont']);
    expect(candidates[2]?.authors).toEqual(['Ingrid Nilsen', 'Børge Haugland', 'Marta Šimunović', 'Tomáš Novák']);
    expect(candidates[4]?.authors).toEqual(['Kenji Tanaka', 'Priya Raman']);
  });

  it('reads arxiv:DOI and arxiv:journal_reference when present', async () => {
    const { candidates } = await parseArxivRss(fixture('arxiv-rss-cs-lg-cl.xml'));
    expect(candidates[3]).toMatchObject({ arxivId: '2509.20417', version: 3, doi: '10.1145/3746027.3755123' });
    expect(candidates[4]).toMatchObject({
      journalRef: 'Transactions on Machine Learning Research (2025)',
      categories: ['cs.AI', 'cs.CL'],
    });
  });

  it('returns zero candidates and no error for the empty holiday feed', async () => {
    const feed = await parseArxivRss(fixture('arxiv-rss-empty.xml'));
    expect(feed.candidates).toEqual([]);
    expect(feed.skipped).toEqual([]);
    expect(feed.meta.pubDate).toBe('2026-01-01T05:00:00.000Z');
  });

  it('skips unusable items with a reason and keeps the rest of the feed', async () => {
    const feed = await parseArxivRss(fixture('arxiv-rss-quirks.xml'));
    expect(feed.candidates.map((c) => c.externalId)).toEqual(['2405.07110v1', 'cs/0112017']);
    expect(feed.skipped).toEqual([
      { reason: 'announce type "absonly" is not a listing', externalId: '2401.00042v1' },
      { reason: 'no arXiv id in description, guid or link', externalId: 'oai:arXiv.org:draft-17' },
      { reason: 'item has no title', externalId: '2405.07222v1' },
      { reason: 'announce type "withdrawn" is not a listing', externalId: '2405.07301v1' },
    ]);
  });

  it('falls back to the description for the announce type, tolerating no space before the newline', async () => {
    const [rloo] = (await parseArxivRss(fixture('arxiv-rss-quirks.xml'))).candidates;
    expect(rloo).toMatchObject({
      announceType: 'new',
      abstract: 'RLOO replaces the learned critic with the mean reward of the other samples.',
      // No item pubDate before August 2024: the channel's announcement date (EDT here) is used.
      publishedOn: '2024-05-14',
    });
  });

  it('takes the id from the link when description and guid have none, without a version', async () => {
    const old = (await parseArxivRss(fixture('arxiv-rss-quirks.xml'))).candidates[1];
    expect(old).toMatchObject({ arxivId: 'cs/0112017', version: undefined, announceType: 'cross' });
    expect(old?.abstract).toBe('Abstract text with no arXiv prefix at all.');
  });

  it('throws FeedError with the message of an arXiv error feed', async () => {
    await expect(parseArxivRss(fixture('arxiv-rss-error.xml'))).rejects.toThrow(FeedError);
    await expect(parseArxivRss(fixture('arxiv-rss-error.xml'))).rejects.toThrow(/Bad subject class 'XX'/);
  });

  it('keeps every good item of a feed where one item carries what strict XML refuses', async () => {
    const feed = rssFeed('cs.LG', '2026-11-20', [
      { id: '2611.40001', title: 'Bad NUL &#0; and a lone surrogate &#xD800; here' },
      { id: '2611.40002', title: 'An undefined entity &nbsp; and &copy; in a title' },
      { id: '2611.40003' },
    ])
      // The builder escapes what it is given; these are the raw bytes a hostile feed would carry.
      .replace('&amp;#0;', '&#0;')
      .replace('&amp;#xD800;', '&#xD800;')
      .replace('&amp;nbsp;', '&nbsp;')
      .replace('&amp;copy;', '&copy;');
    const parsed = await parseArxivRss(feed);
    expect(parsed.candidates.map((c) => c.arxivId)).toEqual(['2611.40001', '2611.40002', '2611.40003']);
    expect(parsed.candidates[1]!.title).toBe('An undefined entity &nbsp; and &copy; in a title');
    expect(parsed.candidates[0]!.title).toBe('Bad NUL and a lone surrogate here');
  });

  it("keeps every good item of a complete feed where one item's markup is broken, counting it skipped (red team)", async () => {
    const feed = rssFeed('cs.LG', '2026-11-20', [
      { id: '2611.40001', title: 'Unclosed BOLD_OPEN tag' },
      { id: '2611.40002' },
    ]).replace('BOLD_OPEN', '<b>');
    const parsed = await parseArxivRss(feed);
    expect(parsed.candidates.map((c) => c.arxivId)).toEqual(['2611.40002']);
    expect(parsed.skipped).toEqual([
      { reason: 'unreadable item (Unexpected close tag)', externalId: 'oai:arXiv.org:2611.40001v1' },
    ]);
    // The same document cut short fails its feed: its missing items are fetched again on the next run.
    await expect(parseArxivRss(feed.slice(0, feed.lastIndexOf('</channel>')))).rejects.toThrow(/unreadable feed/);
  });

  it.each([
    ['an HTML error page', fixture('arxiv-unavailable.html'), /not an RSS document \(an HTML page of [\d,]+ bytes\)$/],
    ['a plain-text throttling body', 'Rate exceeded.', /not an RSS document \(14 bytes of plain text\)$/],
    ['an empty body', '', /empty response body/],
    ['a whitespace-only body', ' \n ', /empty response body/],
    ['truncated XML', fixture('arxiv-rss-truncated.xml'), /unreadable feed \(Unclosed root tag\)/],
    ['an rss element without a channel', '<rss version="2.0"></rss>', /unreadable feed/],
    ['an Atom document', fixture('arxiv-api-family.xml'), /not an RSS document/],
  ])('throws FeedError for %s', async (_what, body, message) => {
    const attempt = parseArxivRss(body);
    await expect(attempt).rejects.toBeInstanceOf(FeedError);
    await expect(attempt).rejects.toThrow(message);
  });
});

describe('arxivRssPages', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `2611.5${String(i).padStart(4, '0')}` }));
  const collect = async (pages: AsyncGenerator<{ candidates: { arxivId: string }[] }, unknown>) => {
    const out: string[][] = [];
    for await (const page of pages) out.push(page.candidates.map((c) => c.arxivId));
    return out;
  };

  it('yields a batch as soon as its items have arrived, before the rest of the body', async () => {
    const feed = rssFeed('cs.LG', '2026-11-20', ids(5));
    const cut = feed.indexOf('<item>', feed.indexOf('2611.50002'));
    let firstPageSeen!: () => void;
    const gotFirstPage = new Promise<void>((resolve) => (firstPageSeen = resolve));
    async function* body() {
      yield feed.slice(0, cut); // three items
      await gotFirstPage; // the rest comes only once the first page was handed over
      yield feed.slice(cut);
    }
    const pages = arxivRssPages(body(), 2);
    const first = await pages.next();
    firstPageSeen();
    expect(first.value).toMatchObject({ candidates: [{ arxivId: '2611.50000' }, { arxivId: '2611.50001' }] });
    expect(await collect(pages)).toEqual([['2611.50002', '2611.50003'], ['2611.50004']]);
  });

  it('skips only the item the XML parser refuses', async () => {
    const feed = rssFeed('cs.LG', '2026-11-20', ids(3)).replace(
      '<title>Paper 2611.50001</title>',
      '<title>Paper 2611.50001</titel>',
    );
    const parsed = await parseArxivRss(feed);
    expect(parsed.candidates.map((c) => c.arxivId)).toEqual(['2611.50000', '2611.50002']);
    expect(parsed.skipped).toEqual([
      { reason: expect.stringMatching(/^unreadable item \(/), externalId: 'oai:arXiv.org:2611.50001v1' },
    ]);
  });

  it('yields the pages before a body that stops mid-item, then fails the feed', async () => {
    const feed = rssFeed('cs.LG', '2026-11-20', ids(5));
    const pages = arxivRssPages(
      (async function* () {
        yield feed.slice(0, feed.indexOf('2611.50004'));
      })(),
      2,
    );
    const seen: string[][] = [];
    const failure = (async () => {
      for await (const page of pages) seen.push(page.candidates.map((c) => c.arxivId));
    })();
    await expect(failure).rejects.toThrow(/unreadable feed \(Unclosed root tag\)/);
    expect(seen).toEqual([
      ['2611.50000', '2611.50001'],
      ['2611.50002', '2611.50003'],
    ]);
  });
});

describe('easternDate', () => {
  it('gives the US Eastern calendar date of an RFC 822 time in either offset', () => {
    expect(easternDate('Mon, 04 Mar 2024 00:00:00 -0500')).toBe('2024-03-04');
    expect(easternDate('Tue, 14 May 2024 00:00:00 -0400')).toBe('2024-05-14');
    expect(easternDate('Mon, 04 Mar 2024 05:00:08 +0000')).toBe('2024-03-04');
    expect(easternDate('not a date')).toBeUndefined();
    expect(easternDate(undefined)).toBeUndefined();
  });
});

describe('arxivRssUrl', () => {
  it('joins the categories into one feed URL', () => {
    expect(arxivRssUrl('https://rss.arxiv.org/rss/', ['cs.LG', ' cs.CL'])).toBe(
      'https://rss.arxiv.org/rss/cs.LG+cs.CL',
    );
  });

  it('refuses an empty category list', () => {
    expect(() => arxivRssUrl('https://rss.arxiv.org/rss', [])).toThrow(RangeError);
  });
});

describe('splitCreators', () => {
  it('splits at commas outside parentheses and drops affiliations, nested ones included', () => {
    expect(
      splitCreators(
        'Yang Zhang (Institute of High Energy Physics, Beijing, China), Li Na, Kenji Tanaka (RIKEN AIP (Tokyo), Japan)',
      ),
    ).toEqual(['Yang Zhang', 'Li Na', 'Kenji Tanaka']);
  });

  it('treats an unclosed parenthesis as affiliation to the end rather than inventing authors', () => {
    expect(splitCreators('Ann Lee, Yang Zhang (Institute of High Energy Physics, Beijing')).toEqual([
      'Ann Lee',
      'Yang Zhang',
    ]);
  });

  it('returns no names for an empty creator', () => {
    expect(splitCreators('')).toEqual([]);
  });
});

describe('decodeLatexAccents', () => {
  it.each([
    ["St\\'ephane", 'Stéphane'],
    ['B{\\o}rge', 'Børge'],
    ['\\v{S}prem', 'Šprem'],
    ['M\\"{u}ller', 'Müller'],
    ['Fran\\c{c}ois', 'François'],
    ["Mart\\'{\\i}nez", 'Martínez'],
    ['Erd\\H{o}s', 'Erdős'],
    ['\\L{}ukasz', 'Łukasz'],
    ['Ga\\ss{}mann', 'Gaßmann'],
    ['Jo\\~ao', 'João'],
  ])('decodes %s', (input, expected) => {
    expect(cleanAuthorName(input)).toBe(expected);
  });

  it('leaves strings without a backslash untouched', () => {
    expect(decodeLatexAccents('Plain Name')).toBe('Plain Name');
  });
});
