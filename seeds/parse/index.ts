/**
 * Entry point of the seed parsers: picks the parser by file name (`000_<hash>.txt` ..
 * `004_<hash>.txt`) and loads the whole seed corpus from a directory.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { titleKey } from '../../src/core/papers/identity.ts';
import { cachedRepair } from '../repair/cache.ts';
import type { SeedCitation, SeedFile, SeedPaper } from '../../src/core/seeds/types.ts';
import { parseCitationHub, readCitationHub } from './citation-hub.ts';
import { parseCurated } from './curated.ts';
import { parseHfSearch } from './hf-search.ts';
import type { RepairFn } from './notes.ts';
import { parsePaperList } from './paper-list.ts';

export interface SeedCorpus {
  papers: SeedPaper[];
  citations: SeedCitation[];
}

export interface SeedParseOptions {
  /** Mojibake repair for the notes of 002/003; injectable so tests can observe it. */
  repair?: RepairFn;
  /** The arXiv id of file 001's hub paper, which that page does not print. */
  hubArxivId?: string;
}

/** The repair used when none is injected: the build's cache of the seed notes, else the live repair. */
const defaultRepair = cachedRepair();

const SEED_FILES: readonly SeedFile[] = ['000', '001', '002', '003', '004'];

/** `002_a81174bf10e69837.txt` -> '002'; null for files that are not seed documents. */
export function seedFileOf(fileName: string): SeedFile | null {
  const prefix = /^(\d{3})_[^/]*\.txt$/.exec(path.basename(fileName))?.[1];
  return SEED_FILES.find((f) => f === prefix) ?? null;
}

export function parseSeedFile(fileName: string, text: string, options: SeedParseOptions = {}): SeedCorpus {
  const file = seedFileOf(fileName);
  const repair = options.repair ?? defaultRepair;
  switch (file) {
    case '000':
      return { papers: parseCurated(text), citations: [] };
    case '001':
      if (!options.hubArxivId)
        throw new Error(`${fileName}: the citation-hub page needs the hub's arXiv id (it prints none)`);
      return parseCitationHub(text, options.hubArxivId);
    case '002':
    case '003':
      return { papers: parsePaperList(text, { file, repair }), citations: [] };
    case '004':
      return { papers: parseHfSearch(text), citations: [] };
    case null:
      throw new Error(`${fileName}: not a seed file (expected 000_*.txt .. 004_*.txt)`);
  }
}

/**
 * Reads the five seed files in `dir`. File 001 is parsed last: its hub is identified by title
 * against the papers of the other files that carry an arXiv id (000 lists GSPO with its id).
 */
export async function loadSeedCorpus(dir: string, options: SeedParseOptions = {}): Promise<SeedCorpus> {
  const names = (await readdir(dir)).filter((name) => seedFileOf(name) !== null).sort();
  const byFile = new Map(names.map((name) => [seedFileOf(name), name] as const));
  const missing = SEED_FILES.filter((f) => !byFile.has(f));
  if (missing.length > 0) throw new Error(`${dir}: missing seed file(s) ${missing.join(', ')}`);

  const texts = new Map<SeedFile, { name: string; text: string }>();
  for (const file of SEED_FILES) {
    const name = byFile.get(file)!;
    texts.set(file, { name, text: await readFile(path.join(dir, name), 'utf8') });
  }

  const results = new Map<SeedFile, SeedCorpus>();
  for (const file of SEED_FILES.filter((f) => f !== '001')) {
    const { name, text } = texts.get(file)!;
    results.set(file, parseSeedFile(name, text, options));
  }
  const hub = texts.get('001')!;
  const hubArxivId =
    options.hubArxivId ??
    resolveHubId(
      hub.text,
      [...results.values()].flatMap((r) => r.papers),
    );
  results.set('001', parseSeedFile(hub.name, hub.text, { ...options, hubArxivId }));

  const ordered = SEED_FILES.map((f) => results.get(f)!);
  return { papers: ordered.flatMap((r) => r.papers), citations: ordered.flatMap((r) => r.citations) };
}

function resolveHubId(hubText: string, known: SeedPaper[]): string {
  const hubTitle = readCitationHub(hubText).hub.title;
  const key = titleKey(hubTitle);
  const match = known.find((p) => p.arxivId && titleKey(p.title) === key);
  if (!match?.arxivId) throw new Error(`001: hub paper "${hubTitle}" has no arXiv id in the other seed files`);
  return match.arxivId;
}
