/**
 * A paper's extracted full text: titled units (the abstract, each section, subsection and appendix,
 * tables as `cell | cell` rows, math as its LaTeX alt text), and which of them matter to a GRPO
 * practitioner (method, experimental setup, implementation details, hyperparameter tables, appendix
 * settings). src/services/sources/arxiv-html.ts builds them from arXiv's HTML; the summariser and the rules
 * extractor read them. Pure.
 */

export interface TextSection {
  /** As the paper titles it, numbered: "4.1 Training setup"; nested units carry their parent's title: "4 Experiments › 4.1 Setup". */
  heading: string;
  kind: 'abstract' | 'body' | 'appendix';
  text: string;
}

/** Units nobody reading for settings needs; left out when storing. */
const USELESS =
  /\b(related work|acknowledg|broader impact|impact statement|ethic|author contribution|reproducibility statement|limitations|references|bibliography|checklist)/i;
const WEAK =
  /\b(introduction|related|background|preliminar|conclusion|discussion|future work|case stud|examples? of|prompt template)\b/i;
const STRONG_HEADING =
  /\b(method|approach|algorithm|objective|experiment|setup|setting|implementation|training|detail|hyper-?parameter|configuration|recipe|reward|dataset|data|baseline|ablation)\b/i;
/** Words of a sentence that states a training setting. */
const CUES =
  /learning rate|batch size|group size|rollouts?|responses per|samples per|per prompt|kl |kl-|\bkl\b|clip|epsilon|\\epsilon|\\varepsilon|ε|temperature|max(imum)? (response|generation|completion|sequence) length|training steps|\bsteps\b|epochs?|qwen|llama|deepseek|mistral|verl|openrlhf|trl\b|optimizer|adamw|warm-?up|hyper-?parameter/gi;

/** How much a unit tells about how the paper trained: headings first, then the settings it states. */
export function sectionScore(s: TextSection): number {
  if (s.kind === 'abstract') return 100;
  const heading = s.heading.toLowerCase();
  const cues = Math.min(12, (s.text.match(CUES) ?? []).length);
  let score = cues;
  if (STRONG_HEADING.test(heading)) score += 6;
  if (s.kind === 'appendix' && (STRONG_HEADING.test(heading) || cues >= 3)) score += 4;
  if (/hyper-?parameter|implementation|training detail|experimental setup|setup|configuration/.test(heading))
    score += 8;
  if (WEAK.test(heading)) score -= 6;
  return score;
}

/** Drops units that carry nothing for a reader of settings (related work, acknowledgements, ...). */
export function usefulSections(sections: readonly TextSection[]): TextSection[] {
  return sections.filter((s) => s.text.trim() && !USELESS.test(lastTitle(s.heading)));
}

/** The innermost title of a nested heading. */
const lastTitle = (heading: string): string => heading.split(' › ').pop() ?? heading;

/**
 * The units that fit in `maxChars`, best first by `sectionScore`, returned in document order. A unit
 * that does not fit is cut at a line end when it is the best left and more than a quarter of the room remains.
 */
export function selectSections(
  sections: readonly TextSection[],
  maxChars: number,
): { sections: TextSection[]; truncated: boolean } {
  const ranked = sections
    .map((s, i) => ({ s, i, score: sectionScore(s) }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const chosen: { s: TextSection; i: number }[] = [];
  let room = maxChars;
  let truncated = false;
  for (const r of ranked) {
    const size = r.s.heading.length + r.s.text.length;
    if (size <= room) {
      chosen.push(r);
      room -= size;
    } else {
      truncated = true;
      if (room > maxChars / 4 && room > 2000) {
        const cut = r.s.text.slice(0, room - r.s.heading.length - 1);
        const end = cut.lastIndexOf('\n');
        chosen.push({ s: { ...r.s, text: end > cut.length / 2 ? cut.slice(0, end) : cut }, i: r.i });
        room = 0;
      }
    }
  }
  return { sections: chosen.sort((a, b) => a.i - b.i).map((c) => c.s), truncated };
}

/** The units as one text (what evidence is checked against when it is not the exact prompt text). */
export function sectionsText(sections: readonly TextSection[]): string {
  return sections.map((s) => `${s.heading}\n${s.text}`).join('\n\n');
}

/** Characters of the units. */
export const sectionsChars = (sections: readonly TextSection[]): number =>
  sections.reduce((n, s) => n + s.heading.length + s.text.length, 0);
