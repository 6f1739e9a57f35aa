import { describe, expect, it } from 'vitest';
import { codeOf, edgesIn, realTree } from './imports.ts';
import {
  fileCycles,
  folderCycles,
  impureCore,
  packageOutsideHome,
  storageRunningRules,
  TEXT_RULES,
  textOutside,
  unplaced,
  upwardImports,
  type Tree,
} from './rules.ts';

/**
 * The architecture, checked on every `npm test`: layers, cycles, and which packages and globals live
 * where. Each rule runs over the real tree and over a made-up one that breaks it.
 */
const real = realTree();

/**
 * Debt, not permission: core views still name storage's row and query shapes. The list must match
 * exactly, so a new upward type import fails, and so does fixing one without striking it here.
 */
const KNOWN_UPWARD_TYPES = [
  'src/core/deps.ts (core) -> db/client.ts (db) [type]',
  'src/core/views/digest-config.ts (core) -> db/queries/channels.ts (db) [type]',
  'src/core/views/digest-config.ts (core) -> db/schema.ts (db) [type]',
  'src/core/views/family.ts (core) -> db/queries/families.ts (db) [type]',
  'src/core/views/family.ts (core) -> db/queries/papers.ts (db) [type]',
  'src/core/views/family.ts (core) -> db/schema.ts (db) [type]',
  'src/core/views/paper-card.ts (core) -> db/queries/papers.ts (db) [type]',
  'src/core/views/paper-card.ts (core) -> db/schema.ts (db) [type]',
  'src/core/views/paper-list.ts (core) -> db/queries/papers.ts (db) [type]',
  'src/core/views/queue.ts (core) -> db/queries/queue.ts (db) [type]',
  'src/core/views/queue.ts (core) -> db/schema.ts (db) [type]',
];

/** A made-up tree from file texts. */
function tree(files: Record<string, string>): Tree {
  const texts = new Map(Object.entries(files).map(([f, text]) => [f, codeOf(text)]));
  return { files: [...texts.keys()], texts, edges: [...texts].flatMap(([f, code]) => edgesIn(f, code)) };
}

describe('the layer table', () => {
  it('places every source file in a layer', () => {
    expect(real.files.length).toBeGreaterThan(100);
    expect(unplaced(real)).toEqual([]);
    expect(unplaced(tree({ 'lib/x.ts': '', 'src/core/y.ts': '' }))).toEqual(['lib/x.ts']);
  });

  it('lets a module import values only from its own layer or below, dynamic import() included', () => {
    expect(upwardImports(real, { typesToo: false })).toEqual([]);
    const bad = tree({
      'src/core/a.ts': "import { b } from '../services/b.ts';",
      'db/q.ts': "const c = await import('../commands/c.ts');",
      'src/services/b.ts': "import { a } from '../core/a.ts';",
      'commands/c.ts': '',
    });
    expect(upwardImports(bad, { typesToo: false })).toEqual([
      'src/core/a.ts (core) -> src/services/b.ts (services)',
      'db/q.ts (db) -> commands/c.ts (features) [dynamic]',
    ]);
  });

  it('lets type-only imports follow the layers too: a shape lives in the lowest layer that names it', () => {
    expect(upwardImports(real, { typesToo: true })).toEqual(KNOWN_UPWARD_TYPES);
    const bad = tree({
      'src/core/merge.ts': "import type { Candidate } from '../services/candidate.ts';",
      'src/core/view.ts': "import { type Row } from '../../db/schema.ts';",
      'src/services/candidate.ts': '',
      'db/schema.ts': '',
    });
    expect(upwardImports(bad, { typesToo: false })).toEqual([]);
    expect(upwardImports(bad, { typesToo: true })).toEqual([
      'src/core/merge.ts (core) -> src/services/candidate.ts (services) [type]',
      'src/core/view.ts (core) -> db/schema.ts (db) [type]',
    ]);
  });

  it('has no import cycle between files', () => {
    expect(fileCycles(real)).toEqual([]);
    const bad = tree({
      'src/core/a.ts': "import { b } from './b.ts';",
      'src/core/b.ts': "import { a } from './a.ts';",
      'src/core/c.ts': "import type { a } from './a.ts';",
    });
    expect(fileCycles(bad)).toEqual([['src/core/a.ts', 'src/core/b.ts']]);
  });

  it('has no cycle between folders (a folder and each subfolder count apart; the root wires everything and is left out)', () => {
    expect(folderCycles(real)).toEqual([]);
    const bad = tree({
      'src/core/x/a.ts': "import { b } from '../y/b.ts';",
      'src/core/y/b.ts': '',
      'src/core/y/c.ts': "import { d } from '../x/d.ts';",
      'src/core/x/d.ts': '',
      'src/app.ts': "import { a } from './core/x/a.ts';",
    });
    expect(folderCycles(bad)).toEqual([['src/core/x', 'src/core/y']]);
  });
});

describe('packages and their one place', () => {
  const bad = tree({
    'src/core/a.ts': "import { Client } from 'discord.js';\nimport { readFileSync } from 'node:fs';",
    'src/core/llm/port.ts': "import type Anthropic from '@anthropic-ai/sdk';",
    'src/services/x.ts': "import { eq } from 'drizzle-orm';\nimport { Resvg } from '@resvg/resvg-js';",
    'db/q.ts': "import { rule } from '../src/core/a.ts';\nimport type { T } from '../src/core/t.ts';",
  });

  it('lets only src/adapters/discord import discord.js, types included', () => {
    const rule = (t: Tree) =>
      packageOutsideHome(t, /^(discord\.js|@discordjs\/)/, (f) => f.startsWith('src/adapters/discord/'), {
        typesToo: true,
      });
    expect(rule(real)).toEqual([]);
    expect(rule(bad)).toEqual(['src/core/a.ts']);
  });

  it('lets only src/services/llm import the LLM SDK (and the port in src/core/llm name its types)', () => {
    const home = (f: string) => f.startsWith('src/services/llm/');
    const rules = (t: Tree) => [
      ...packageOutsideHome(t, /^@anthropic-ai\//, home),
      ...packageOutsideHome(t, /^@anthropic-ai\//, (f) => home(f) || f.startsWith('src/core/llm/'), {
        typesToo: true,
      }),
    ];
    expect(rules(real)).toEqual([]);
    expect(rules(tree({ 'src/core/views/x.ts': "import type { M } from '@anthropic-ai/sdk';" }))).toEqual([
      'src/core/views/x.ts',
    ]);
    expect(rules(bad)).toEqual([]);
  });

  it('lets only src/services/render load the rendering packages (Graphviz, Vega, resvg); the core names their types only', () => {
    const rule = (t: Tree) =>
      packageOutsideHome(t, /^(@viz-js\/|vega($|-)|@resvg\/)/, (f) => f.startsWith('src/services/render/'));
    expect(rule(real)).toEqual([]);
    expect(rule(bad)).toEqual(['src/services/x.ts']);
  });

  it('keeps every SQL statement under db/', () => {
    const rule = (t: Tree) => packageOutsideHome(t, /^(drizzle-orm|postgres)(\/|$)/, (f) => f.startsWith('db/'));
    expect(rule(real)).toEqual([]);
    expect(rule(bad)).toEqual(['src/services/x.ts']);
  });

  it('keeps db/ storage only: it runs no rule of src/ (type-only imports name shapes)', () => {
    expect(storageRunningRules(real)).toEqual([]);
    expect(storageRunningRules(bad)).toEqual(['db/q.ts (db) -> src/core/a.ts (core)']);
  });

  it('keeps the core pure: no database, network, file system or platform at run time', () => {
    expect(impureCore(real)).toEqual([]);
    expect(impureCore(bad)).toEqual(['src/core/a.ts']);
  });
});

describe('globals and their one place', () => {
  it('reads the clock from deps: no `new Date()` or `Date.now` outside the composition root', () => {
    expect(textOutside(real, TEXT_RULES.clock)).toEqual([]);
    const bad = tree({
      'src/app.ts': 'const now = () => new Date();',
      'src/services/a.ts': 'const deadline = Date.now() + 5;',
      'src/core/b.ts': 'const clock = { now: Date.now };',
      'src/cli.ts': 'const t = new Date( );',
      'src/core/c.ts': '// Date.now() in a comment\nconst d = new Date(ms);',
    });
    expect(textOutside(bad, TEXT_RULES.clock)).toEqual(['src/services/a.ts', 'src/core/b.ts', 'src/cli.ts']);
  });

  it('times durations with a monotonic timer but never tells the time with one', () => {
    expect(textOutside(real, TEXT_RULES.timerAsClock)).toEqual([]);
    const bad = tree({
      'jobs/a.ts': 'const started = performance.now();',
      'jobs/b.ts': 'const at = new Date(performance.timeOrigin + performance.now());',
      'src/services/c.ts': 'const at = new Date(start + performance.now());',
    });
    expect(textOutside(bad, TEXT_RULES.timerAsClock)).toEqual(['jobs/b.ts', 'src/services/c.ts']);
  });

  it('sends every request through src/services/sources/http.ts: no global fetch elsewhere', () => {
    expect(textOutside(real, TEXT_RULES.fetch)).toEqual([]);
    const bad = tree({
      'src/services/sources/http.ts': 'const res = await fetch(url);',
      'src/core/a.ts': 'await fetch(process.env.X);',
      'jobs/b.ts': 'const f = globalThis.fetch;',
      'jobs/c.ts': 'await client.fetch(x); await prefetch(y);',
    });
    expect(textOutside(bad, TEXT_RULES.fetch)).toEqual(['src/core/a.ts', 'jobs/b.ts']);
  });

  it('reads the environment in the root only (loadConfig(env) is given it)', () => {
    expect(textOutside(real, TEXT_RULES.env)).toEqual([]);
    const bad = tree({
      'src/cli/x.ts': 'loadConfig(process.env);',
      'src/core/a.ts': 'const key = process.env.KEY;',
      'seeds/b.ts': "const { HOME } = process['env'] ?? process.env;",
    });
    expect(textOutside(bad, TEXT_RULES.env)).toEqual(['src/core/a.ts', 'seeds/b.ts']);
  });
});
