/**
 * The structured Chinese note of files 002/003. In the files it is double-encoded mojibake
 * (UTF-8 read as cp1254), section markers included, so the note is repaired first and split
 * into sections afterwards. Sections are recognised by their emoji (the emoji's bytes all exist
 * in cp1254, so they survive the damage) and, failing that, by their Chinese label.
 */
import type { SeedNote } from '../../src/core/seeds/types.ts';

export type RepairFn = (damaged: string) => { text: string; restored: number; unresolved: number; uncertain?: number };

type SectionKind = 'heading' | 'motivation' | 'method' | 'results' | 'takeaways';

const SECTION_MARKERS: [SectionKind, RegExp][] = [
  ['heading', /🌟|论文解读/u],
  ['motivation', /📌|背景痛点|本文动机/u],
  ['method', /🚀|核心方法/u],
  ['results', /📈|实验结果/u],
  ['takeaways', /💬|可借鉴/u],
];

/** Repairs one note (everything after the English abstract) and splits it into its sections. */
export function parseNote(damaged: string, repair: RepairFn): SeedNote {
  const repaired = repair(damaged);
  const body = repaired.text.trim();
  const sections = splitSections(body);
  const headingLine = sections.get('heading')?.title ?? '';
  return {
    lang: 'zh',
    // The title line reads "🌟 论文解读 | <title>"; a note without the bar keeps its whole line.
    heading: (headingLine.includes('|')
      ? headingLine.slice(headingLine.indexOf('|') + 1)
      : headingLine.replace(/^\S*🌟\s*/u, '')
    ).trim(),
    motivation: sections.get('motivation')?.text ?? '',
    method: splitInnovations(sections.get('method')?.text ?? ''),
    results: sections.get('results')?.text ?? '',
    takeaways: sections.get('takeaways')?.text ?? '',
    body,
    restoredChars: repaired.restored,
    unresolvedChars: repaired.unresolved,
    uncertainChars: repaired.uncertain ?? 0,
  };
}

interface Section {
  title: string;
  text: string;
}

/** `### ` lines open sections; a section the classifier does not know is kept in the body only. */
function splitSections(body: string): Map<SectionKind, Section> {
  const sections = new Map<SectionKind, Section>();
  let current: { kind: SectionKind | undefined; title: string; lines: string[] } | undefined;
  const flush = () => {
    if (current?.kind && !sections.has(current.kind)) {
      sections.set(current.kind, { title: current.title, text: current.lines.join('\n').trim() });
    }
  };
  for (const line of body.split('\n')) {
    const header = /^###\s+(.*)$/.exec(line);
    if (header) {
      flush();
      const title = header[1] ?? '';
      current = { kind: SECTION_MARKERS.find(([, re]) => re.test(title))?.[0], title, lines: [] };
    } else {
      current?.lines.push(line);
    }
  }
  flush();
  return sections;
}

/**
 * The method section lists "💡 创新点N" items, with the item's name on the label line
 * ("💡 创新点1：<name>") or not. Each item becomes one string without the label; a method
 * section written as plain prose becomes a single item.
 */
function splitInnovations(text: string): string[] {
  if (text === '') return [];
  const parts = text.split(/^(?=💡)/mu);
  const items = parts
    .filter((part) => part.startsWith('💡'))
    .map((part) => part.replace(/^💡\s*(创新点\s*\d*)?\s*[：:]?\s*/u, '').trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : [text];
}
