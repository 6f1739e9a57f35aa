/**
 * The LaTeX that arXiv titles and abstracts carry (`\textbf{Res}haped`, `$8.76\%$`, `~\cite{x}`,
 * `{\em a}`, `$\epsilon$-greedy`) as readable text (pure). Every view shows paper text through
 * `readable`, so cards, lists, digests, search snippets and notifications read the same; escaping for
 * Discord markdown happens after it, where each view needs it.
 *
 * Hand-written rather than a LaTeX library: abstracts use a small, flat subset (font commands,
 * citations, inline math with a few symbols, sub/superscripts); the parsers on npm build a full
 * document AST and render nothing as plain text. Unknown macros keep their name (`\ours` -> `ours`,
 * `\DisORM` -> `DisORM`: papers define their method's name as a macro), so no word is lost.
 */

import { renderCitations } from './citations.ts';

const SYMBOLS: Record<string, string> = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  varepsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  phi: 'φ',
  varphi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  Gamma: 'Γ',
  Delta: 'Δ',
  Theta: 'Θ',
  Lambda: 'Λ',
  Pi: 'Π',
  Sigma: 'Σ',
  Phi: 'Φ',
  Psi: 'Ψ',
  Omega: 'Ω',
  times: '×',
  otimes: '⊗',
  oplus: '⊕',
  cdot: '·',
  pm: '±',
  mp: '∓',
  leq: '≤',
  le: '≤',
  geq: '≥',
  ge: '≥',
  neq: '≠',
  ne: '≠',
  approx: '≈',
  sim: '~',
  propto: '∝',
  infty: '∞',
  to: '→',
  rightarrow: '→',
  leftarrow: '←',
  Rightarrow: '⇒',
  leftrightarrow: '↔',
  uparrow: '↑',
  downarrow: '↓',
  in: '∈',
  notin: '∉',
  subset: '⊂',
  subseteq: '⊆',
  cup: '∪',
  cap: '∩',
  forall: '∀',
  exists: '∃',
  partial: '∂',
  nabla: '∇',
  sum: 'Σ',
  prod: 'Π',
  sqrt: '√',
  ell: 'ℓ',
  ldots: '…',
  dots: '…',
  cdots: '⋯',
  log: 'log',
  exp: 'exp',
  max: 'max',
  min: 'min',
  arg: 'arg',
  AA: 'Å',
  textgreater: '>',
  textless: '<',
  textasciitilde: '~',
  textbar: '|',
  S: '§',
  textquotedblleft: '“',
  textquotedblright: '”',
  textendash: '–',
  textemdash: '—',
  LaTeX: 'LaTeX',
  TeX: 'TeX',
  checkmark: '✓',
  quad: ' ',
  qquad: ' ',
  left: '',
  right: '',
  big: '',
  Big: '',
  displaystyle: '',
  mid: '|',
};

/** Commands whose argument is the text itself (fonts, boxes, math alphabets). */
const KEEP_ARGUMENT = new Set([
  'textbf',
  'textit',
  'emph',
  'texttt',
  'textsc',
  'textrm',
  'textsf',
  'textup',
  'textnormal',
  'underline',
  'text',
  'mathrm',
  'mathbf',
  'mathit',
  'mathcal',
  'mathbb',
  'mathsf',
  'mathtt',
  'boldsymbol',
  'bm',
  'operatorname',
  'mbox',
  'hbox',
  'textcolor',
  'uppercase',
  'hat',
  'bar',
  'tilde',
  'widehat',
  'overline',
]);
/** Commands whose argument is dropped (references and notes that mean nothing outside the PDF). */
const DROP_ARGUMENT = new Set([
  'cite',
  'citet',
  'citep',
  'citealp',
  'citeauthor',
  'citeyear',
  'ref',
  'eqref',
  'label',
  'footnote',
  'footnotemark',
  'vspace',
  'hspace',
]);
/** Declarations that switch a font or size for the rest of a group: dropped. */
const SWITCHES = new Set([
  'em',
  'bf',
  'it',
  'tt',
  'sc',
  'rm',
  'sf',
  'itshape',
  'bfseries',
  'ttfamily',
  'scshape',
  'normalfont',
  'small',
  'footnotesize',
  'scriptsize',
  'tiny',
  'large',
  'Large',
  'LARGE',
  'huge',
  'Huge',
  'normalsize',
  'noindent',
  'centering',
]);

const SUPERSCRIPT: Record<string, string> = {
  0: '⁰',
  1: '¹',
  2: '²',
  3: '³',
  4: '⁴',
  5: '⁵',
  6: '⁶',
  7: '⁷',
  8: '⁸',
  9: '⁹',
  '+': '⁺',
  '-': '⁻',
  n: 'ⁿ',
  i: 'ⁱ',
  T: 'ᵀ',
  '*': '*',
};
const SUBSCRIPT: Record<string, string> = {
  0: '₀',
  1: '₁',
  2: '₂',
  3: '₃',
  4: '₄',
  5: '₅',
  6: '₆',
  7: '₇',
  8: '₈',
  9: '₉',
  '+': '₊',
  '-': '₋',
};

/** Text that may hold LaTeX: a command, inline math, a tie before a command, TeX quotes, a braced script. */
const LOOKS_LATEX = /\\[a-zA-Z%&_#$]|\$[^\s$]|``|[A-Za-z0-9)][\^_]\{/;

/** `text` with its LaTeX rendered as readable text; text without LaTeX is returned as is. */
export function readable(input: string): string {
  const text = input.includes('}') ? dropRemnants(input) : input;
  if (!LOOKS_LATEX.test(text)) return text;
  let out = renderCitations(text).replace(/\$\$([^$]+)\$\$/g, (_m, math: string) => ` ${renderMath(math)} `);
  // A lone relation in math before a number ("$>$1M", "$\sim$3x") is math, not money.
  out = out.replace(/\$(\\?[<>]|\\(?:sim|approx|geq?|leq?|times))\$(?=\d)/g, (_m, op: string) => renderMath(op));
  // Inline math as pandoc reads it: `$` followed by a non-space, closed by a `$` after a non-space and not before a digit ("$5 and $10" stays money).
  out = out.replace(/\$(?=\S)((?:\\\$|[^$])+?)(?<=\S)\$(?!\d)/g, (_m, math: string) => renderMath(math));
  // A braced script whose math dollars a feed dropped ("a hard-but-solvable q^{+}").
  out = out.replace(
    /([A-Za-z0-9)])([\^_]\{[^{}\s]{1,8}\})/g,
    (_m, base: string, script: string) => base + renderMath(script),
  );
  out = renderText(out);
  return out
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ ([,.;:)])/g, '$1')
    .replace(/\( /g, '(')
    .trim();
}

/**
 * What is left of LaTeX whose command a feed already dropped: an `\href` as `https://x.org/y{label}`
 * (shown as `\href` is: the link, with its label when it says more), and a brace that pairs with none
 * ("We introduce Reasoning Scaffolding}, a framework").
 */
function dropRemnants(text: string): string {
  const linked = text.replace(/(https?:\/\/[^\s{}]+)\{([^{}\s][^{}]*)\}/g, (_m, url: string, label: string) =>
    url.replace(/^https?:\/\//, '') === label.trim().replace(/^https?:\/\//, '') ? url : `${label} (${url})`,
  );
  const unpaired = new Set<number>();
  const open: number[] = [];
  for (const m of linked.matchAll(/(?<!\\)[{}]/g)) {
    if (m[0] === '{') open.push(m.index);
    else if (open.length) open.pop();
    else unpaired.add(m.index);
  }
  // An unclosed group after a command ("\footnote{Code at ...", cut short) is the command's: renderText reads it.
  for (const at of open) if (!/\\[a-zA-Z]+\*?$/.test(linked.slice(0, at))) unpaired.add(at);
  if (unpaired.size === 0) return linked;
  const chars = linked.split('');
  // "URL}{label": the two groups of an \href whose command went, read as two words.
  return chars.map((c, i) => (!unpaired.has(i) ? c : c === '}' && unpaired.has(i + 1) ? ' ' : '')).join('');
}

/** Math: sub/superscripts, symbols, then the text rules (fonts, braces). */
function renderMath(math: string): string {
  const script =
    (map: Record<string, string>, mark: string) =>
    (_m: string, braced: string | undefined, single: string | undefined) => {
      const body = braced ?? single ?? '';
      const chars = [...body];
      return chars.every((c) => map[c])
        ? chars.map((c) => map[c]).join('')
        : `${mark}${body.length > 1 ? `(${body})` : body}`;
    };
  const scripted = math
    .replace(/\^\{?\\circ\}?/g, '°')
    .replace(/\^(?:\{([^{}]*)\}|([^\s{\\]))/g, script(SUPERSCRIPT, '^'))
    .replace(/_(?:\{([^{}]*)\}|([^\s{\\]))/g, script(SUBSCRIPT, '_'));
  return renderText(scripted);
}

/** Text-mode LaTeX: commands with arguments, switches, symbols, escapes, ties, quotes, leftover braces. */
function renderText(s: string): string {
  let out = s;
  // Innermost first, so nested commands (\textbf{\emph{x}}) unwrap in a few passes.
  for (let pass = 0; pass < 4; pass++) {
    const before = out;
    out = out
      .replace(/\\href\{([^{}]*)\}\{([^{}]*)\}/g, (_m, url: string, label: string) =>
        label.trim() === url.trim() ? url : `${label} (${url})`,
      )
      .replace(/\\url\{([^{}]*)\}/g, '$1')
      .replace(/(~?)\\([a-zA-Z]+)\*?(?:\[[^\]]*\])?\{([^{}]*)\}/g, (m, tie: string, name: string, arg: string) => {
        if (DROP_ARGUMENT.has(name)) return '';
        if (KEEP_ARGUMENT.has(name)) return `${tie ? ' ' : ''}${arg}`;
        return m; // \frac (two arguments) below; unknown commands keep their argument when the braces go
      })
      .replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '$1/$2')
      .replace(/\{\\(?:em|bf|it|tt|sc|rm|sf|small|itshape|bfseries)\s+([^{}]*)\}/g, '$1');
    if (out === before) break;
  }
  return (
    out
      .replace(/\\([%&_#${}])/g, '$1')
      // A control word eats the space after it in TeX; a switch goes with it, a symbol or a name keeps it.
      .replace(/\\([a-zA-Z]{2,})(?![a-zA-Z])(\s?)/g, (_m, name: string, space: string) =>
        SWITCHES.has(name) || DROP_ARGUMENT.has(name) ? '' : `${SYMBOLS[name] ?? name}${space}`,
      )
      .replace(/\\[,;:! ]/g, ' ')
      .replace(/\\\\/g, ' ')
      .replace(/``/g, '“')
      .replace(/''/g, '”')
      .replace(/(?<=\S)~(?=\S)/g, ' ')
      .replace(/(?<!\\)[{}]/g, '')
  );
}
