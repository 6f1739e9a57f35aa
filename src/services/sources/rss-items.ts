/**
 * The last resort for an RSS document a strict XML parser refuses after `repairXml`: a complete
 * document (it ends with `</rss>`) is read item by item, so one item whose markup is broken (an
 * unescaped `<b>` in a title) costs that item, not the feed. A document cut short is not read this
 * way: its missing items would be lost behind the feed's cursor.
 */
import type Parser from 'rss-parser';

const ITEM = /<item[\s>][\s\S]*?<\/item>/g;

/** Items that parsed, and how many did not; undefined when the document is incomplete, has no item or its channel is unreadable. */
export async function parseItemByItem<F, I>(
  newParser: () => Parser<F, I>,
  xml: string,
): Promise<{ feed: F & Parser.Output<I>; unreadable: number } | undefined> {
  const first = xml.search(/<item[\s>]/);
  if (first < 0 || !/<\/rss>\s*$/.test(xml)) return undefined;
  const head = xml.slice(0, first);
  const tail = '</channel></rss>';
  let feed: F & Parser.Output<I>;
  try {
    feed = await newParser().parseString(head + tail);
  } catch {
    return undefined;
  }
  const items: (I & Parser.Item)[] = [];
  let unreadable = 0;
  for (const [chunk] of xml.slice(first).matchAll(ITEM)) {
    try {
      // A parser that failed can answer the next document wrongly: each chunk gets its own.
      items.push(...(await newParser().parseString(head + chunk + tail)).items);
    } catch {
      unreadable++;
    }
  }
  return { feed: { ...feed, items }, unreadable };
}
