import { execFile } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/grpo-digest');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI as a user would, in its own process, with only the given environment. */
export function cli(args: string[], env: Record<string, string>, stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      BIN,
      args,
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
        timeout: 90_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin ?? '');
  });
}
