import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The data files the app reads at run time, named from the package root. The root is the nearest
 * folder above this module that holds package.json, so the same names work from source (tsx,
 * vitest) and from the compiled bundle in dist/.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

export const fromPackageRoot = (relative: string): string => path.join(ROOT, relative);

/** The user's seed documents, imported on the first start. */
export const SEED_DIR = fromPackageRoot('seeds/data');

/** The Chinese word model of the seed repair, also the search's dictionary for Chinese queries. */
export const MODEL_URL = pathToFileURL(fromPackageRoot('seeds/repair/zh-model.txt'));
