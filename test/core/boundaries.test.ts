import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** STYLE.md's boundary rules, checked by reading every import in the source folders. */
const ROOT = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const p = path.join(abs, name);
    if (statSync(p).isDirectory()) return name === 'data' || name === 'migrations' ? [] : sourceFiles(path.join(dir, name));
    return name.endsWith('.ts') ? [path.join(dir, name)] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

const all = ['src', 'commands', 'jobs', 'db', 'seeds'].flatMap(sourceFiles);
const importing = (pattern: RegExp) => all.filter((f) => imports(f).some((i) => pattern.test(i)));

describe('import boundaries', () => {
  it('finds the source files it checks', () => {
    expect(all.length).toBeGreaterThan(10);
  });

  it('lets only src/discord import discord.js', () => {
    expect(importing(/^(discord\.js|@discordjs\/)/).filter((f) => !f.startsWith('src/discord/'))).toEqual([]);
  });

  it('lets only src/summarize import the LLM SDK', () => {
    expect(importing(/^@anthropic-ai\//).filter((f) => !f.startsWith('src/summarize/'))).toEqual([]);
  });

  it('keeps src/papers pure: no database, network or platform imports', () => {
    const impure = sourceFiles('src/papers').filter((f) => imports(f).some((i) => /db\/|postgres|drizzle|node:(fs|net|http)|discord|anthropic/.test(i)));
    expect(impure).toEqual([]);
  });

  it('keeps commands platform-neutral: no adapter imports', () => {
    expect(sourceFiles('commands').filter((f) => imports(f).some((i) => /src\/(discord|console)\//.test(i)))).toEqual([]);
  });

  it('keeps db/ free of Discord and the LLM', () => {
    expect(sourceFiles('db').filter((f) => imports(f).some((i) => /discord|anthropic|src\/(discord|summarize|console)\//.test(i)))).toEqual([]);
  });
});
