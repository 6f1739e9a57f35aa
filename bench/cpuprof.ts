/**
 * Summarises a V8 `.cpuprofile` (node --cpu-prof): self time per origin, so start-up cost can be
 * put on node itself, tsx/esbuild, a dependency or our own files.
 */
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** `node_modules/<pkg>` -> the package; our files by top folder; node internals and V8 by name. */
export function origin(url: string, fn: string, root: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  if (path.startsWith(root)) return `${path.slice(root.length + 1).split('/')[0]}/ (ours)`;
  return path;
}

/**
 * Milliseconds of self time per key, largest first, over the samples within `window` (microseconds of
 * the monotonic clock, `process.hrtime` / 1000 in any process of the machine) when given.
 */
async function selfTime(
  file: string,
  key: (n: ProfileNode) => string,
  window?: [number, number],
): Promise<[string, number][]> {
  const prof = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  let t = prof.startTime;
  prof.samples.forEach((id, i) => {
    t += prof.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || (window && (t < window[0] || t > window[1]))) return;
    const k = key(node);
    totals.set(k, (totals.get(k) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]).map(([k, ms]) => [k, Math.round(ms)]);
}

/** Milliseconds of self time per origin, largest first. */
export function selfTimeByOrigin(file: string, root: string, window?: [number, number]): Promise<[string, number][]> {
  return selfTime(file, (n) => origin(n.callFrame.url, n.callFrame.functionName, root), window);
}

/** Milliseconds of self time per function (`name origin`), largest first. */
export function selfTimeByFunction(file: string, root: string, window?: [number, number]): Promise<[string, number][]> {
  return selfTime(
    file,
    (n) => `${n.callFrame.functionName || '(anonymous)'} · ${origin(n.callFrame.url, n.callFrame.functionName, root)}`,
    window,
  );
}
