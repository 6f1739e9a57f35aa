/**
 * Citations in arXiv abstracts (`GRPO~\cite{shao2024deepseekmath}`, `insights from \citet{Xiong-2025-Minimalist}.`)
 * as a reader expects them (pure). The reference list a key points to is never shown, so a key is not
 * text: it must neither show nor be searched. A citation in parentheses of the sentence ("GRPO~\cite{x},
 * known for") goes; one the sentence uses as a noun ("the reward from \cite{x}.", "\citet{x} show",
 * "(e.g., \cite{x})") becomes a short reference read from its keys, `[Shao 2024]`, or `[ref]` when a
 * key names no author and year, so the sentence still reads ("...insights from [Xiong 2025].").
 */

/** natbib's textual citations: the sentence always names them. */
const TEXTUAL = new Set(['citet', 'citeauthor', 'citeyear', 'citealt', 'Citet', 'Citeauthor', 'Citealt']);

/** A word after which a citation is the object the sentence needs ("from \cite{x}", "as in \cite{x}"). */
const NEEDS_OBJECT = new Set(
  `from by in of on to with and or than as see following follow follows followed like unlike via using use uses
  used extend extends extending adopt adopts adopting against versus vs vs. including include includes into
  between among over per beyond upon after before within cf. e.g. e.g., i.e. i.e.,`.split(/\s+/),
);

const CITATION = /~?\\([cC]ite[a-zA-Z]*)\*?(?:\[[^\]]*\]){0,2}\{([^{}]*)\}/g;
/** Marks where a citation went, so parentheses it leaves empty ("(\cite{x})") go too. */
const GONE = '\u0000';

/** `text` with each citation dropped or shown as a short reference, as the sentence uses it. */
export function renderCitations(text: string): string {
  if (!/\\[cC]ite/.test(text)) return text;
  let out = '';
  let from = 0;
  for (const m of text.matchAll(CITATION)) {
    // What precedes a citation is read as rendered, so "\cite{a}\cite{b}" is judged as one.
    out += text.slice(from, m.index);
    from = m.index + m[0].length;
    const noun = TEXTUAL.has(m[1]!) || usedAsNoun(out.replaceAll(GONE, ''), text.slice(from));
    out += noun ? ` ${reference(m[2]!)}` : GONE;
  }
  return `${out}${text.slice(from)}`
    .replace(new RegExp(`\\s*\\((?:[\\s,;]|${GONE})*\\)`, 'g'), (p) => (p.includes(GONE) ? '' : p))
    .replaceAll(GONE, '');
}

/** Whether the words around a citation need it as a noun: after a preposition, or as a sentence's subject. */
function usedAsNoun(before: string, after: string): boolean {
  const prev = before.trimEnd();
  const word = /(\S+)$/.exec(prev)?.[1]?.replace(/^\(/, '').toLowerCase();
  if (word && NEEDS_OBJECT.has(word)) return true;
  // "\cite{x} show that": a subject; "as shown before.\cite{x} We" or at the end: a trailing citation.
  const startsSentence = prev === '' || (/[.!?]$/.test(prev) && !/\bal\.$/.test(prev));
  return startsSentence && /^[\s~]*[a-z]/.test(after);
}

/** `[Shao 2024; Guo 2025]` from the keys' authors and years; `[ref]` when no key names them. */
function reference(keys: string): string {
  const all = keys
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const named = [...new Set(all.flatMap((k) => authorYear(k) ?? []))];
  return named.length ? `[${named.join('; ')}]` : all.length > 1 ? '[refs]' : '[ref]';
}

/** `shao2024deepseekmath`, `Shao-2024-Deepseekmath`, `Xuetal2018` -> "Shao 2024", "Xu 2018"; other keys: none. */
function authorYear(key: string): string | undefined {
  const m = /^([A-Z]?[a-z']{1,20}?)(?:etal)?[-_:]?((?:19|20)\d\d)(?!\d)/.exec(key);
  if (!m) return undefined;
  const name = m[1]!;
  return `${name[0]!.toUpperCase()}${name.slice(1)} ${m[2]}`;
}
