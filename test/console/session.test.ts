import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { answerLine } from '../../src/adapters/console/run.ts';
import { GENERIC_ERROR } from '../../src/core/dispatch.ts';
import { cli, ROOT } from '../helpers/cli.ts';
import { useSeededDb } from '../helpers/seeded.ts';

const SCRIPT = path.join(import.meta.dirname, 'session.txt');

/** What no answer may ever show: a value that leaked unformatted, or a crash. */
const BROKEN: [string, RegExp][] = [
  ['NULL', /\bNULL\b/],
  ['undefined', /\bundefined\b/],
  ['NaN', /\bNaN\b/],
  ['[object Object]', /\[object Object\]/],
  ['Invalid Date', /Invalid Date/],
  ['a stack trace', /\n\s+at .+:\d+:\d+\)?$/m],
  ['the generic error', new RegExp(GENERIC_ERROR.slice(0, 40))],
];

/** The script's lines, without comments and blanks. */
async function scriptLines(): Promise<string[]> {
  return (await readFile(SCRIPT, 'utf8'))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** `$ search "a b" --limit 3` -> ['search', 'a b', '--limit', '3']. */
function argv(line: string): string[] {
  return [...line.replace(/^\$\s*/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** `/press "Next ▶"`: the id of the button so labelled in the previous answer. */
function pressByLabel(line: string, previous: string): string {
  const label = /^\/press "(.+)"$/.exec(line)?.[1];
  if (!label) return line;
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const id = new RegExp(`\\[${escaped}\\] \\(/press (\\S+)\\)`).exec(previous)?.[1];
  if (!id) throw new Error(`no enabled button "${label}" in the answer before ${line}`);
  return `/press ${id}`;
}

describe("a newcomer's console session (test/console/session.txt)", () => {
  const seeded = useSeededDb();

  it("covers every slash command and subcommand in the README's tables", async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const listed = new Set(
      [
        ...readme.matchAll(
          /`\/(\w+)(?: (search|show|cite|latest|random|mark|setup|preview|now|off|status|vote|add|next|done|remove|history|list|tree))?/g,
        ),
      ]
        .map((m) => `/${m[1]}${m[2] ? ` ${m[2]}` : ''}`)
        .filter((c) => c !== '/press' && c !== '/quit'),
    );
    const lines = await scriptLines();
    const missing = [...listed].filter((c) => !lines.some((l) => l === c || l.startsWith(`${c} `)));
    expect(listed.size).toBeGreaterThanOrEqual(25);
    expect(missing).toEqual([]);
  });

  it('answers every line without NULL, undefined, NaN, [object Object], Invalid Date, a stack trace or a bug', async () => {
    const errors: string[] = [];
    const log = pino({ level: 'error' }, { write: (s: string) => void errors.push(s) });
    const deps = { ...seeded().deps, log };
    const failures: string[] = [];
    const check = (line: string, answer: string) => {
      for (const [what, pattern] of BROKEN) {
        const at = pattern.exec(answer);
        if (at)
          failures.push(`${line}\n  shows ${what}: …${answer.slice(Math.max(0, at.index - 120), at.index + 80)}…`);
      }
      if (!answer.trim()) failures.push(`${line}\n  has no answer`);
    };
    const lines = await scriptLines();
    // Console lines in order (a press reads the answer before it); then the CLI runs, at once, on what they left.
    let previous = '';
    const pictures = await mkdtemp(path.join(tmpdir(), 'grpo-session-pictures-'));
    for (const line of lines.filter((l) => !l.startsWith('$'))) {
      errors.length = 0;
      previous = await answerLine(pressByLabel(line, previous), deps, undefined, pictures);
      check(line, previous);
      if (errors.length) failures.push(`${line}\n  logged an error: ${errors.join('').slice(0, 300)}`);
    }
    await Promise.all(
      lines
        .filter((l) => l.startsWith('$'))
        .map(async (line) => {
          const r = await cli(argv(line), { DATABASE_URL: seeded().url });
          if (r.code !== 0) failures.push(`${line}\n  exit code ${r.code}: ${r.stderr.slice(0, 300)}`);
          check(line, `${r.stdout}\n${r.stderr}`);
        }),
    );
    expect(failures).toEqual([]);
  }, 180_000);
});
