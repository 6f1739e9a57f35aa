/**
 * arXiv's HTML rendering of a paper (LaTeXML output at `https://arxiv.org/html/<id>v<n>`) read into
 * titled text units (src/core/papers/paper-text.ts): the abstract, every section, subsection and
 * appendix, tables as `cell | cell` rows, math as its LaTeX alt text (`$\epsilon_{high}=0.28$`),
 * footnotes inline in brackets; the page chrome, figures' images and the bibliography left out.
 * Parsed with htmlparser2 (a forgiving HTML parser), never with regular expressions over the markup.
 *
 * A paper without HTML is reported two ways by arXiv: a 404, and a 200 with a stub page ("No HTML
 * for ...", or a LaTeXML conversion that failed before any text). Both read as `no-html` here:
 * a page counts only when it has a LaTeXML document with some body text. Pure.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import type { TextSection } from '../../core/papers/paper-text.ts';
import { stripUnsafeChars } from '../../core/reply.ts';

/** The HTML page of one version of a paper (the base is ARXIV_HTML_BASE). */
export function arxivHtmlUrl(base: string, arxivId: string, version: number | null): string {
  return `${base.replace(/\/+$/, '')}/${arxivId}${version ? `v${version}` : ''}`;
}

export type ParsedPage =
  | { kind: 'ok'; title: string | null; sections: TextSection[]; conversionWarning: boolean }
  | { kind: 'no-html'; reason: string };

/** Less body text than this is a stub, an error page or a conversion that failed early. */
const MIN_BODY_CHARS = 800;

const classes = (e: Element): string[] => (e.attribs.class ?? '').split(/\s+/).filter(Boolean);
const hasClass = (e: Element, c: string): boolean => classes(e).includes(c);

/** Units of text: each is a section-like element's own content (nested sections are units of their own). */
const SECTION_CLASSES = ['ltx_section', 'ltx_subsection', 'ltx_subsubsection', 'ltx_appendix', 'ltx_chapter'] as const;
const isSection = (e: Element) => SECTION_CLASSES.some((c) => hasClass(e, c));
/** Never text: page chrome, the bibliography, images, scripts, LaTeXML's error marks. */
const SKIPPED_CLASSES = [
  'ltx_bibliography',
  'ltx_page_footer',
  'ltx_page_header',
  'ltx_page_navbar',
  'ltx_TOC',
  'ltx_authors',
  'ltx_dates',
  'ltx_ERROR',
  'ltx_note_mark',
  'ltx_tag_note',
  'ltx_role_institutetext',
  'ltx_classification',
  'ltx_logo',
] as const;
const SKIPPED_TAGS = new Set([
  'script',
  'style',
  'svg',
  'img',
  'button',
  'nav',
  'header',
  'footer',
  'noscript',
  'annotation',
  'annotation-xml',
  'head',
  'input',
  'form',
]);
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'dd',
  'dt',
  'dl',
  'br',
  'pre',
]);

/** Reads a page arXiv served with 200. */
export function parseArxivHtml(html: string): ParsedPage {
  // The reader recurses and the parser slows down quadratically with depth: a hostile page of
  // 200,000 nested elements overflowed the stack after minutes of parsing. Its depth is measured first.
  const depth = tagDepth(html);
  if (depth > MAX_DEPTH)
    return {
      kind: 'no-html',
      reason: `the page nests elements over ${MAX_DEPTH.toLocaleString('en-US')} deep: not a paper`,
    };
  const doc = parseDocument(html);
  // arXiv's conversion-error banner is a `div.package-alerts.ltx_document` of its own: the paper is the `article`.
  const root =
    DomUtils.findOne((e) => e.name === 'article' && hasClass(e, 'ltx_document'), doc.children) ??
    DomUtils.findOne((e) => hasClass(e, 'ltx_document') && !hasClass(e, 'package-alerts'), doc.children);
  if (!root) {
    // arXiv's own stub says which version has no HTML: that short line is kept (arXiv's host only: http.ts follows no other).
    const pageText = stripUnsafeChars(DomUtils.textContent(doc)).replace(/\s+/g, ' ').trim().slice(0, 100);
    return {
      kind: 'no-html',
      reason: `not a paper: the page has no LaTeXML document${pageText ? ` ("${pageText}")` : ''}`,
    };
  }

  const titleEl = DomUtils.findOne((e) => hasClass(e, 'ltx_title_document'), root.children);
  const sections: TextSection[] = [];
  const abstract = DomUtils.findOne((e) => hasClass(e, 'ltx_abstract'), root.children);
  if (abstract) {
    const text = render(abstract.children.filter((c) => !(isTag(c) && hasClass(c, 'ltx_title_abstract'))));
    if (text) sections.push({ heading: 'Abstract', kind: 'abstract', text });
  }
  collect(root, [], sections);
  const body = sections.filter((s) => s.kind !== 'abstract').reduce((n, s) => n + s.text.length, 0);
  const alerts = DomUtils.findAll((e) => hasClass(e, 'package-alerts'), doc.children);
  const conversionWarning = alerts.some((a) => /Fatal error/i.test(DomUtils.textContent(a)));
  if (body < MIN_BODY_CHARS) {
    return {
      kind: 'no-html',
      reason: conversionWarning
        ? "arXiv's HTML conversion failed for this version"
        : `the page has almost no body text (${body} characters): a stub`,
    };
  }
  return { kind: 'ok', title: titleEl ? squashLine(render(titleEl.children)) : null, sections, conversionWarning };
}

/** Real LaTeXML pages nest a few dozen elements deep. */
const MAX_DEPTH = 1_000;

const VOID_TAGS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/**
 * How deep the page's tags nest, by counting start and end tags (void and self-closing ones
 * aside), stopping as soon as it passes MAX_DEPTH. Close enough for LaTeXML's well-formed output.
 */
function tagDepth(html: string): number {
  let depth = 0;
  let max = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    if (m[1]) depth = Math.max(0, depth - 1);
    else if (!m[3] && !VOID_TAGS.has(m[2]!.toLowerCase())) depth++;
    if (depth > max && (max = depth) > MAX_DEPTH) break;
  }
  return max;
}

/** Walks the document: each section-like element becomes a unit of its own direct content. */
function collect(node: Element, parents: string[], out: TextSection[]): void {
  for (const child of node.children) {
    if (!isTag(child) || skipped(child)) continue;
    if (isSection(child)) {
      const titleEl = child.children.find((c): c is Element => isTag(c) && hasClass(c, 'ltx_title'));
      const title = titleEl ? squashLine(render(titleEl.children)) : '';
      const heading = [...parents, title].filter(Boolean).join(' › ');
      const own = child.children.filter((c) => c !== titleEl && !(isTag(c) && isSection(c)));
      const text = render(own);
      const kind = hasClass(child, 'ltx_appendix') || parents.some((p) => /^appendix\b/i.test(p)) ? 'appendix' : 'body';
      if (text) out.push({ heading: heading || '(untitled)', kind, text });
      collect(child, [...parents, title], out);
    } else if (!hasClass(child, 'ltx_abstract')) {
      collect(child, parents, out);
    }
  }
}

const skipped = (e: Element): boolean => SKIPPED_TAGS.has(e.name) || SKIPPED_CLASSES.some((c) => hasClass(e, c));

/** Text of some nodes: paragraphs on their own lines, tables as rows, math as `$alttext$`. */
function render(nodes: readonly AnyNode[]): string {
  const out: string[] = [];
  const walk = (n: AnyNode): void => {
    if (isText(n)) {
      out.push(n.data);
      return;
    }
    if (!isTag(n) || skipped(n)) return;
    if (n.name === 'math') {
      const tex = n.attribs.alttext?.trim() || squashLine(DomUtils.textContent(n));
      const block = n.attribs.display === 'block';
      out.push(block ? `\n$$${tex}$$\n` : `$${tex}$`);
      return;
    }
    if (n.name === 'table') {
      out.push('\n', isEquation(n) ? equationText(n) : tableText(n), '\n');
      return;
    }
    if (hasClass(n, 'ltx_note')) {
      const content = DomUtils.findOne((e) => hasClass(e, 'ltx_note_content'), n.children);
      const text = content
        ? squashLine(render(content.children.filter((c) => !(isTag(c) && hasClass(c, 'ltx_note_mark')))))
        : '';
      if (text) out.push(` [${text}]`);
      return;
    }
    const block = BLOCK_TAGS.has(n.name);
    if (block) out.push('\n');
    for (const c of n.children) walk(c);
    if (block) out.push('\n');
  };
  for (const n of nodes) walk(n);
  return out.join('').split('\n').map(squashLine).filter(Boolean).join('\n');
}

const isEquation = (t: Element): boolean =>
  classes(t).some((c) => c.startsWith('ltx_equation') || c === 'ltx_eqn_table');

/** A display equation: the alt text of each of its formulas, one per line (equation numbers left out). */
function equationText(t: Element): string {
  return DomUtils.findAll((e) => e.name === 'math', t.children)
    .map((m) => `$$${m.attribs.alttext?.trim() || squashLine(DomUtils.textContent(m))}$$`)
    .join('\n');
}

/** A data table: one line per row, cells separated by ` | `, empty rows dropped. */
function tableText(t: Element): string {
  const rows = DomUtils.findAll((e) => e.name === 'tr', t.children).filter((tr) => !isNested(tr, t));
  return rows
    .map((tr) =>
      tr.children
        .filter((c): c is Element => isTag(c) && (c.name === 'td' || c.name === 'th'))
        .map((c) => squashLine(render(c.children).replace(/\n/g, ' '))),
    )
    .filter((cells) => cells.some(Boolean))
    .map((cells) => cells.join(' | '))
    .join('\n');
}

/** Whether a row belongs to a table nested inside `table` (rendered with its own cell). */
function isNested(tr: Element, table: Element): boolean {
  for (let p = tr.parent; p && p !== table; p = p.parent) if (isTag(p) && p.name === 'table') return true;
  return false;
}

/** One line of text, with the characters no stored text may hold (NUL, controls, lone surrogates, bidi overrides) removed. */
function squashLine(s: string): string {
  return stripUnsafeChars(s)
    .replace(/[ \t\u00a0\r\f\v]+/g, ' ')
    .replace(/\s+([,.;:)\]])/g, '$1')
    .trim();
}
