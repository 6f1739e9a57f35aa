/**
 * A fix to the postgres.js driver (3.4.9, the latest release), applied on `npm install` (the
 * `postinstall` script) and checked by the tests. Three faults, all seen here by killing the
 * embedded Postgres mid-poll or terminating a backend mid-transaction:
 * 1. A query sent on a connection that has already closed (a transaction's ROLLBACK, a reserved
 *    connection's next query) is written from a `setImmediate` to a socket that is now null: an
 *    uncaught TypeError ends the process (porsager/postgres#1208, #1154).
 * 2. The close leaves the half-written buffer behind: the connection's next start-up message goes out
 *    after those stale bytes, and it never connects again (CONNECT_TIMEOUT).
 * 3. The close leaves the query in flight (and the server's last error) attached to the connection:
 *    its next start-up hands that error to the next query and the pool stalls.
 * The fix settles the queries of such a write with CONNECTION_CLOSED (the caller's promise rejects, as for
 * any lost connection), and a closing connection drops its buffer, its query in flight and its last error.
 * Remove this file (and the postinstall script) once a release of postgres.js fixes them upstream.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MARKER = '/* grpo-digest: nextWrite guard */';

/**
 * A write after the close: its bytes belong to the queries executed since (in `query` and `sent`),
 * never to a reconnection's first query (`initial`), which the pool may already have handed over.
 */
const GUARD = `  function nextWrite(fn) {
    ${MARKER}
    if (socket === null) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      const err = Errors.connection('CONNECTION_CLOSED', options)
      query && queryError(query, err)
      while (sent.length) queryError(sent.shift(), err)
      query = null
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

const CLOSE_IN_FLIGHT =
  "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n";
// The driver's source has no semicolons: a line starting with \`(\` would continue the one before it.
const CLOSE_ALL = `    if (query || sent.length) error(Errors.connection('CONNECTION_CLOSED', options, socket))
    query = results = errorResponse = null
`;

/** The module's source with the fix, or null when it does not have the code the fix expects. */
export function patchSource(source: string): string | null {
  if (isPatched(source)) return source;
  const head = '  function nextWrite(fn) {\n';
  const teardown = /^( {4})clearImmediate\(nextWriteTimer\)\n/gm;
  if (
    source.split(head).length !== 2 ||
    (source.match(teardown) ?? []).length !== 2 ||
    source.split(CLOSE_IN_FLIGHT).length !== 2
  )
    return null;
  return source
    .replace(head, GUARD)
    .replace(teardown, '$1clearImmediate(nextWriteTimer)\n$1chunk = nextWriteTimer = null\n')
    .replace(CLOSE_IN_FLIGHT, CLOSE_ALL);
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
  const unexpected = Object.entries(result)
    .filter(([, r]) => r === 'unexpected')
    .map(([f]) => f);
  process.stdout.write(
    `postgres.js connection guard: ${Object.entries(result)
      .map(([f, r]) => `${f} ${r}`)
      .join(', ')}\n`,
  );
  if (unexpected.length)
    process.stdout.write(
      `  (not applied to ${unexpected.join(', ')}: the driver changed; check whether its release fixed porsager/postgres#1208)\n`,
    );
}
