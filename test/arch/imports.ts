import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Edge, Tree } from './rules.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SOURCE_DIRS = ['src', 'commands', 'jobs', 'db', 'seeds'];

export function sourceFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(path.join(ROOT, p)).isDirectory())
      return name === 'data' || name === 'migrations' ? [] : sourceFiles(p);
    return name.endsWith('.ts') ? [p] : [];
  });
}

export interface Import {
  /** The specifier as written. */
  spec: string;
  /** The repo-relative file for a relative specifier, else undefined (a package). */
  target?: string;
  typeOnly: boolean;
  dynamic: boolean;
}

/** A file's code with its block and whole-line comments blanked. */
export function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** Every static import/export-from and dynamic import() of a file. */
export function importsOf(file: string): Import[] {
  return importsIn(file, codeOf(readFileSync(path.join(ROOT, file), 'utf8')));
}

/** The imports in a file's code (comments already blanked); pure, so the rules can be tested on made-up files. */
export function importsIn(file: string, text: string): Import[] {
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean, dynamic: boolean) =>
    out.push({
      spec,
      typeOnly,
      dynamic,
      ...(spec.startsWith('.') && { target: path.normalize(path.join(path.dirname(file), spec)) }),
    });
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"]([^'"]+)['"]/gm)) {
    // `import { type A, type B } from` is type-only too.
    const names = m[2]!;
    const inlineTypesOnly =
      /^\{[^}]*\}$/.test(names) &&
      names
        .slice(1, -1)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => s.startsWith('type '));
    add(m[3]!, Boolean(m[1]) || inlineTypesOnly, false);
  }
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) add(m[1]!, false, false);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) add(m[1]!, false, true);
  return out;
}

/** The real tree: every source file, its imports as edges, its code. */
export function realTree(): Tree {
  const files = SOURCE_DIRS.flatMap(sourceFiles);
  const texts = new Map(files.map((f) => [f, codeOf(readFileSync(path.join(ROOT, f), 'utf8'))]));
  return { files, texts, edges: files.flatMap((f) => edgesIn(f, texts.get(f)!)) };
}

/** A file's imports as the rules' edges. */
export function edgesIn(file: string, code: string): Edge[] {
  return importsIn(file, code).map((i) => ({
    from: file,
    spec: i.spec,
    typeOnly: i.typeOnly,
    dynamic: i.dynamic,
    ...(i.target && { to: i.target }),
  }));
}
