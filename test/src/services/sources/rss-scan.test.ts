import { describe, expect, it } from 'vitest';
import { RssScanner, type ScanEnd } from '../../../../src/services/sources/rss-scan.ts';

const HEAD = `<?xml version='1.0'?><!-- an <item> in a comment --><rss version="2.0"><channel><title>t</title>`;
const ITEMS = [
  '<item><title>one</title></item>',
  '<item>\n<description><![CDATA[ a CDATA with </item> and <item> inside ]]></description></item >',
  '<item/>',
  '<item><?pi </item> ?><!-- </item> --><title>four</title></item>',
];
const DOC = `${HEAD}${ITEMS[0]}\n  ${ITEMS[1]}${ITEMS[2]}<!-- between -->${ITEMS[3]}\n</channel></rss>\n`;

function scan(pieces: string[]): { header: string | undefined; items: string[]; end: ScanEnd } {
  const s = new RssScanner();
  const items: string[] = [];
  for (const p of pieces) {
    s.push(p);
    items.push(...s.take());
  }
  return { header: s.header, items, end: s.end() };
}

describe('RssScanner', () => {
  it('cuts a document into its items, skipping CDATA, comments and processing instructions, wherever the text is split', () => {
    const whole = scan([DOC]);
    expect(whole).toEqual({
      header: HEAD,
      items: ITEMS,
      end: { kind: 'after-items', trailer: '\n</channel></rss>\n' },
    });
    for (let cut = 0; cut <= DOC.length; cut++) expect(scan([DOC.slice(0, cut), DOC.slice(cut)])).toEqual(whole);
    expect(scan([...DOC])).toEqual(whole);
  });

  it('says when the text stops inside an item, and gives the whole document when there is no item', () => {
    expect(scan([DOC.slice(0, DOC.indexOf('four'))]).end).toEqual({
      kind: 'in-item',
      partial: ITEMS[3]!.slice(0, ITEMS[3]!.indexOf('four')),
    });
    const empty = `${HEAD}</channel></rss>`;
    expect(scan([empty])).toEqual({ header: undefined, items: [], end: { kind: 'no-items', document: empty } });
  });

  it('does not take a longer tag name for an item', () => {
    const doc = `${HEAD}<items><itemized/></items><item><itemx>a</itemx></item></channel></rss>`;
    expect(scan([doc]).items).toEqual(['<item><itemx>a</itemx></item>']);
  });
});
