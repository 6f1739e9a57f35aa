/**
 * A two-part fix to the postgres.js driver (3.4.9, the latest release), applied on `npm install`
 * (the `postinstall` script) and checked by the tests.
 *
 * When the server goes away, a query sent on a connection that has already closed (a transaction's
 * ROLLBACK, a reserved connection's next query) is written from a `setImmediate` to a socket that is
 * now null: an uncaught TypeError ends the process (porsager/postgres#1208, #1154). And the close
 * leaves the half-written buffer behind, so the connection's next start-up message is sent after
 * those stale bytes and the pool never reconnects. Both were seen here by killing the embedded
 * Postgres mid-poll: the bot crashed, or hung on CONNECT_TIMEOUT once the server was back.
 *
 * The fix settles such a write with CONNECTION_CLOSED (the caller's promise rejects, as for any lost
 * connection) and clears the buffer whenever a connection closes. Remove this file (and the
 * postinstall script) once a release of postgres.js carries the fix upstream.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MARKER = '/* grpo-digest: nextWrite guard */';

const GUARD = `  function nextWrite(fn) {
    ${MARKER}
    if (socket === null) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
`;

/** The driver's connection modules (ESM, CommonJS, Cloudflare), relative to the package. */
const FILES = ['src/connection.js', 'cjs/src/connection.js', 'cf/src/connection.js'];

export const DRIVER_DIR = fileURLToPath(new URL('../node_modules/postgres', import.meta.url));

/** Whether a connection module already carries the fix. */
export function isPatched(source: string): boolean {
  return source.includes(MARKER);
}

/** The module's source with the fix, or null when it does not have the code the fix expects. */
export function patchSource(source: string): string | null {
  if (isPatched(source)) return source;
  const head = '  function nextWrite(fn) {\n';
  const teardown = /^( {4})clearImmediate\(nextWriteTimer\)\n/gm;
  if (source.split(head).length !== 2 || (source.match(teardown) ?? []).length !== 2) return null;
  return source.replace(head, GUARD).replace(teardown, '$1clearImmediate(nextWriteTimer)\n$1chunk = nextWriteTimer = null\n');
}

/** Patches the installed driver; returns what it did to each file. */
export function patchDriver(dir = DRIVER_DIR): Record<string, 'patched' | 'already' | 'unexpected' | 'missing'> {
  const out: Record<string, 'patched' | 'already' | 'unexpected' | 'missing'> = {};
  for (const file of FILES) {
    const full = path.join(dir, file);
    let source: string;
    try {
      source = readFileSync(full, 'utf8');
    } catch {
      out[file] = 'missing';
      continue;
    }
    const patched = patchSource(source);
    if (patched === null) out[file] = 'unexpected';
    else if (patched === source) out[file] = 'already';
    else {
      writeFileSync(full, patched);
      out[file] = 'patched';
    }
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = patchDriver();
  const unexpected = Object.entries(result).filter(([, r]) => r === 'unexpected').map(([f]) => f);
  process.stdout.write(`postgres.js connection guard: ${Object.entries(result).map(([f, r]) => `${f} ${r}`).join(', ')}\n`);
  if (unexpected.length) process.stdout.write(`  (not applied to ${unexpected.join(', ')}: the driver changed; check whether its release fixed porsager/postgres#1208)\n`);
}
