/**
 * Feeds in the exact wire formats (docs: feed-formats.md), built per test so a scenario can move
 * through days, versions and failures. The static fixtures in test/fixtures/feeds cover the
 * formats' odd corners; these cover behaviour over time.
 */

export interface RssItem {
  id: string;
  v?: number;
  type?: 'new' | 'cross' | 'replace' | 'replace-cross';
  title?: string;
  abstract?: string;
  cats?: string[];
  creators?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An arXiv RSS 2.0 category feed for the announcement of `date` (YYYY-MM-DD, US Eastern midnight). */
export function rssFeed(category: string, date: string, items: RssItem[]): string {
  const day = new Date(`${date}T05:00:00Z`);
  const pub = `${day.toUTCString().slice(0, 16)} 00:00:00 -0500`;
  const body = items
    .map(
      (i) => `    <item>
      <title>${esc(i.title ?? `Paper ${i.id}`)}</title>
      <link>https://arxiv.org/abs/${i.id}</link>
      <description>arXiv:${i.id}v${i.v ?? 1} Announce Type: ${i.type ?? 'new'} 
Abstract: ${esc(i.abstract ?? `We study problem ${i.id} with convolutional networks on image data.`)}</description>
      <guid isPermaLink="false">oai:arXiv.org:${i.id}v${i.v ?? 1}</guid>
${(i.cats ?? [category]).map((c) => `      <category>${c}</category>`).join('\n')}
      <pubDate>${pub}</pubDate>
      <arxiv:announce_type>${i.type ?? 'new'}</arxiv:announce_type>
      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>
      <dc:creator>${esc(i.creators ?? 'Ada Lovelace, Alan Turing (University of Manchester, UK)')}</dc:creator>
    </item>`,
    )
    .join('\n');
  return `<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">
  <channel>
    <title>${category} updates on arXiv.org</title>
    <link>http://rss.arxiv.org/rss/${category}</link>
    <description>${category} updates on the arXiv.org e-print archive.</description>
    <atom:link href="http://rss.arxiv.org/rss/${category}" rel="self" type="application/rss+xml"/>
    <docs>http://www.rssboard.org/rss-specification</docs>
    <language>en-us</language>
    <lastBuildDate>${day.toUTCString().replace('GMT', '+0000')}</lastBuildDate>
    <managingEditor>rss-help@arxiv.org</managingEditor>
    <pubDate>${pub}</pubDate>
    <skipDays>
      <day>Saturday</day>
      <day>Sunday</day>
    </skipDays>
${body}
  </channel>
</rss>
`;
}

export interface ApiEntry {
  id: string;
  v?: number;
  title?: string;
  abstract?: string;
  published?: string;
  cats?: string[];
}

/** An arXiv API Atom page (the post-2025 serializer). */
export function apiFeed(entries: ApiEntry[], total = entries.length, start = 0): string {
  const body = entries
    .map(
      (e) => `  <entry>
    <id>http://arxiv.org/abs/${e.id}v${e.v ?? 1}</id>
    <title>${esc(e.title ?? `Paper ${e.id}`)}</title>
    <updated>${e.published ?? '2026-11-15T10:00:00Z'}</updated>
    <link href="https://arxiv.org/abs/${e.id}v${e.v ?? 1}" rel="alternate" type="text/html"/>
    <link href="https://arxiv.org/pdf/${e.id}v${e.v ?? 1}" rel="related" type="application/pdf" title="pdf"/>
    <summary>${esc(e.abstract ?? `We study problem ${e.id}.`)}</summary>
${(e.cats ?? ['cs.LG']).map((c) => `    <category term="${c}" scheme="http://arxiv.org/schemas/atom"/>`).join('\n')}
    <published>${e.published ?? '2026-11-15T10:00:00Z'}</published>
    <arxiv:primary_category term="${(e.cats ?? ['cs.LG'])[0]}"/>
    <author>
      <name>Grace Hopper</name>
    </author>
  </entry>`,
    )
    .join('\n');
  return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/test</id>
  <title>arXiv Query: search_query=test</title>
  <updated>2026-11-16T06:15:00Z</updated>
  <link href="https://arxiv.org/api/query?search_query=test" type="application/atom+xml"/>
  <opensearch:itemsPerPage>${entries.length}</opensearch:itemsPerPage>
  <opensearch:totalResults>${total}</opensearch:totalResults>
  <opensearch:startIndex>${start}</opensearch:startIndex>
${body}
</feed>
`;
}

export interface HfItem {
  id: string;
  title?: string;
  upvotes?: number;
  githubRepo?: string;
  githubStars?: number;
}

/** A Hugging Face `daily_papers` page (the 2026 shape, optional fields only when given). */
export function hfPage(items: HfItem[], date: string): string {
  return JSON.stringify(
    items.map((i) => {
      const title = i.title ?? `Paper ${i.id}`;
      return {
        paper: {
          id: i.id,
          authors: [{ _id: 'a1', name: 'Ada Lovelace', hidden: false }],
          publishedAt: `${date}T00:00:00.000Z`,
          submittedOnDailyAt: `${date}T08:00:00.000Z`,
          title,
          summary: `We study problem ${i.id}.`,
          upvotes: i.upvotes ?? 1,
          discussionId: 'd1',
          ...(i.githubRepo && { githubRepo: i.githubRepo, githubStars: i.githubStars ?? 0 }),
        },
        publishedAt: `${date}T09:00:00.000Z`,
        title,
        summary: `We study problem ${i.id}.`,
        thumbnail: `https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/${i.id}.png`,
        numComments: 0,
        submittedBy: {
          _id: 'u1',
          avatarUrl: '/a.svg',
          fullname: 'Ada',
          name: 'ada',
          type: 'user',
          isPro: false,
          isHf: false,
          isHfAdmin: false,
          isMod: false,
        },
        isAuthorParticipating: false,
      };
    }),
  );
}
