/**
 * The embedded Postgres's password: random per data dir, kept beside the cluster in a file only its
 * owner can read. It replaced a fixed password that let any local user connect to 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import postgres from 'postgres';

/** What every data dir used before passwords were generated; replaced on the first start that finds it. */
export const LEGACY_PASSWORD = 'grpo-local';

/** `<dir>.password`, beside the cluster. */
export const passwordFile = (dir: string) => `${path.resolve(dir)}.password`;

/** The error of a password file that cannot be read or written; the caller wraps it in its own error type. */
class PasswordFileError extends Error {
  override name = 'PasswordFileError';
}

/**
 * This data dir's password: read from its file, or generated (24 random bytes) and written there with
 * mode 0600 on first use (`created`). A file others may read is made owner-only again.
 */
export async function passwordFor(dir: string): Promise<{ password: string; created: boolean }> {
  const file = passwordFile(dir);
  try {
    await writeFile(file, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    return { password: (await readFile(file, 'utf8')).trim(), created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new PasswordFileError(
        `Cannot write the embedded Postgres password file ${file}: ${(err as Error).message}`,
      );
  }
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  const password = (await readFile(file, 'utf8')).trim();
  if (!password)
    throw new PasswordFileError(
      `The embedded Postgres password file ${file} is empty. Remove it and ${path.resolve(dir)} to start afresh.`,
    );
  return { password, created: false };
}

/** The password of a server another process started: its file, or the old fixed one when it has none (an older grpo-digest started it). */
export async function existingPassword(dir: string): Promise<string> {
  return (await readFile(passwordFile(dir), 'utf8').catch(() => LEGACY_PASSWORD)).trim() || LEGACY_PASSWORD;
}

/** A cluster made before passwords were generated still has the old fixed one: change it to this data dir's own. */
export async function replaceLegacyPassword(port: number, user: string, password: string): Promise<void> {
  const sql = postgres({
    host: '127.0.0.1',
    port,
    database: 'postgres',
    username: user,
    password: LEGACY_PASSWORD,
    max: 1,
    onnotice: () => {},
    connect_timeout: 10,
  });
  try {
    await sql.unsafe(`ALTER ROLE ${user} PASSWORD '${password.replace(/'/g, "''")}'`);
  } finally {
    await sql.end();
  }
}
