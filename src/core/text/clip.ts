/**
 * Text safety and sizing for digest messages. Pure.
 * Sizes are measured in UTF-16 code units (`string.length`), which is never less than the code
 * points Discord counts, so a message that fits here fits there.
 */

import { untrustedText } from '../reply.ts';

/** Cuts text to at most `max` UTF-16 units, ending with an ellipsis when cut; never splits a surrogate pair. */
export function fit(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = max - 1;
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** Collapses runs of whitespace, so abstracts with hard line breaks read as one paragraph. */
export function squash(text: string): string {
  // Most text is already one clean paragraph: a scan is much cheaper than a replace that allocates.
  if (!/[^\S ]| {2}/.test(text)) return text.trim();
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The first one or two sentences (the second only while the result stays under `max`): an
 * extractive TL;DR. Splits after `.!?` followed by a capital or digit, and after Chinese stops,
 * so "e.g. a", "2.5" and "Fig. 3a" do not end a sentence.
 */
export function leadSentences(text: string, max = 320): string {
  const flat = squash(text);
  const sentences = flat.split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])|(?<=[。！？])/u).filter((s) => s.trim());
  const first = sentences[0] ?? '';
  const second = sentences[1];
  const two = second ? `${first} ${second}`.replace(/(?<=[。！？]) /u, '') : first;
  return fit(second && two.length <= max ? two : first, max);
}

/**
 * squash + untrustedText (markdown shown as text, mentions defused) + fit, reading only the start of
 * a long text: a 20,000-character TL;DR costs no more than one that fits. A text cut here still ends
 * with an ellipsis.
 */
export function clip(text: string, max: number): string {
  const window = max * 2 + 16;
  if (text.length <= window) return fit(untrustedText(squash(text)), max);
  const end = /[\uD800-\uDBFF]/.test(text[window - 1] ?? '') ? window - 1 : window;
  return fit(`${untrustedText(squash(text.slice(0, end)))}…`, max);
}
