/**
 * What the parsers do with a body before and instead of reading it: repair the XML errors one item
 * can carry, so that one bad character never costs a whole feed, and describe a body that is not a
 * feed without quoting it (an upstream's text never reaches a message).
 */

const XML_ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

/** A code point XML 1.0 allows in a document. */
function xmlChar(cp: number): boolean {
  if (cp === 0x9 || cp === 0xa || cp === 0xd) return true;
  if (cp < 0x20) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  if (cp === 0xfffe || cp === 0xffff) return false;
  return cp <= 0x10ffff;
}

/**
 * The body with what a strict XML parser refuses taken out: character references to code points XML
 * forbids (`&#0;`, `&#xD800;`) and raw control characters are dropped, an undefined entity
 * (`&nbsp;`) or a bare `&` is escaped so that it reads as text. CDATA sections are left as they are.
 */
export function repairXml(xml: string): string {
  return xml
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part, i) => (i % 2 === 1 ? part : repairText(part)))
    .join('');
}

function repairText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- these are exactly the characters XML forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
      .replace(/&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][\w.-]*)?;?/g, (whole, ref: string | undefined) => {
        if (!ref || !whole.endsWith(';')) return `&amp;${whole.slice(1)}`;
        if (ref.startsWith('#')) {
          const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
          return xmlChar(cp) ? whole : '';
        }
        return XML_ENTITIES.has(ref) ? whole : `&amp;${ref};`;
      })
  );
}

/** "an HTML page of 12,345 bytes": what a body is, never what it says. */
export function describeBody(body: string): string {
  const size = `${new TextEncoder().encode(body).length.toLocaleString('en-US')} bytes`;
  const head = body.trimStart().slice(0, 200).toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return `an HTML page of ${size}`;
  if (head.startsWith('{') || head.startsWith('[')) return `a JSON document of ${size}`;
  if (head.startsWith('<')) return `an XML document of another kind, ${size}`;
  return `${size} of plain text`;
}

/** The first line of a parser's error, for a FeedError or a skipped item's reason. */
export function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error';
}
