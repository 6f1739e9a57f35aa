/**
 * Cuts an RSS document into its `<item>...</item>` elements as the text arrives, so a listing is
 * parsed a few items at a time instead of whole. Not a parser: it only finds where items start and
 * end, skipping CDATA sections, comments, processing instructions and declarations (an `</item>`
 * inside an abstract's CDATA is text). What lies before the first item is the channel header.
 */

/** How a markup construct starting with `<` ends, by what opens it (longest openers first). */
const CONSTRUCTS: readonly (readonly [open: string, close: string])[] = [
  ['<![CDATA[', ']]>'],
  ['<!--', '-->'],
  ['<?', '?>'],
  ['<!', '>'],
];
const LONGEST_OPENER = 9;
const TAG_NAME = /<(\/?)([A-Za-z_:][^\s/>]*)(?=[\s/>])/y;
/** The start of a tag whose name may still be arriving. */
const TAG_START = /^<\/?(?:[A-Za-z_:][^\s/>]*)?$/;

/** What the document ended with, once the text is all in. */
export type ScanEnd =
  /** No item at all: the whole document (a channel without items, or not RSS). */
  | { kind: 'no-items'; document: string }
  /** The text after the last item (`</channel></rss>` in a whole document). */
  | { kind: 'after-items'; trailer: string }
  /** The text stopped inside an item: that item's start. */
  | { kind: 'in-item'; partial: string };

export class RssScanner {
  /** The text not yet handed out (all of it until the first item is seen). */
  #buf = '';
  /** Where scanning resumes in #buf. */
  #pos = 0;
  /** The start of what is kept in #buf: the current item's `<`, or just after the last item. */
  #mark = 0;
  #inItem = false;
  #header: string | undefined;
  #items: string[] = [];
  /** A construct at #waitAt whose end was not found in the text so far: search again from #searchFrom. */
  #waitAt = -1;
  #searchFrom = 0;

  /** Everything before the first `<item`, once one has been seen. */
  get header(): string | undefined {
    return this.#header;
  }

  /** Adds the next piece of text. */
  push(text: string): void {
    this.#buf += text;
    this.#scan();
    if (this.#header !== undefined && this.#mark > 0) {
      this.#buf = this.#buf.slice(this.#mark);
      this.#pos -= this.#mark;
      if (this.#waitAt >= 0) {
        this.#waitAt -= this.#mark;
        this.#searchFrom -= this.#mark;
      }
      this.#mark = 0;
    }
  }

  /** The complete items found so far, each handed out once. */
  take(): string[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }

  /** Call once the text is all in (after a last `take`). */
  end(): ScanEnd {
    if (this.#header === undefined) return { kind: 'no-items', document: this.#buf };
    return this.#inItem ? { kind: 'in-item', partial: this.#buf } : { kind: 'after-items', trailer: this.#buf };
  }

  #scan(): void {
    const buf = this.#buf;
    for (;;) {
      const at = buf.indexOf('<', this.#pos);
      if (at < 0) {
        this.#pos = buf.length;
        return;
      }
      const end = this.#constructEnd(at);
      if (end === undefined) return;
      this.#pos = end;
    }
  }

  /** Where the construct at `at` ends (after its last character), or undefined until more text comes. */
  #constructEnd(at: number): number | undefined {
    const buf = this.#buf;
    const head = buf.slice(at, at + LONGEST_OPENER);
    for (const [open, close] of CONSTRUCTS) {
      if (head.length < open.length && open.startsWith(head)) return this.#wait(at);
      if (head.startsWith(open)) return this.#find(at, at + open.length, close);
    }
    TAG_NAME.lastIndex = at;
    const tag = TAG_NAME.exec(buf);
    if (!tag) return buf.length - at < 64 && TAG_START.test(buf.slice(at)) ? this.#wait(at) : at + 1;
    const end = this.#find(at, TAG_NAME.lastIndex, '>');
    if (end === undefined || tag[2] !== 'item') return end;
    if (!this.#inItem && !tag[1]) this.#startItem(at, buf[end - 2] === '/', end);
    else if (this.#inItem && tag[1]) this.#endItem(end);
    return end;
  }

  #startItem(at: number, selfClosing: boolean, end: number): void {
    this.#header ??= this.#buf.slice(0, at);
    this.#mark = at;
    this.#inItem = true;
    if (selfClosing) this.#endItem(end);
  }

  #endItem(end: number): void {
    this.#items.push(this.#buf.slice(this.#mark, end));
    this.#mark = end;
    this.#inItem = false;
  }

  /** The end of `close` searched from `from`, remembering how far a failed search got. */
  #find(at: number, from: number, close: string): number | undefined {
    const start = this.#waitAt === at ? Math.max(from, this.#searchFrom) : from;
    const found = this.#buf.indexOf(close, start);
    if (found >= 0) {
      this.#waitAt = -1;
      return found + close.length;
    }
    this.#waitAt = at;
    this.#searchFrom = Math.max(from, this.#buf.length - close.length + 1);
    this.#pos = at;
    return undefined;
  }

  #wait(at: number): undefined {
    this.#pos = at;
    return undefined;
  }
}
