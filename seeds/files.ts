import { fileURLToPath } from 'node:url';

/**
 * Where the data files the app reads at run time live, named from the package root. This module
 * sits one folder below the root, like every file of the compiled bundle (`dist/*.js`, where
 * esbuild puts this code), so `..` is the root from both: run from source (tsx) or compiled.
 * db/migrate.ts locates the migrations the same way.
 */
const fromRoot = (relative: string) => new URL(`../${relative}`, import.meta.url);

/** The user's seed documents, imported on the first start. */
export const SEED_DIR = fileURLToPath(fromRoot('seeds/data'));

/** The Chinese word model of the seed repair, also the search's dictionary for Chinese queries. */
export const MODEL_URL = fromRoot('seeds/repair/zh-model.txt');
