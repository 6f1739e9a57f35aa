/**
 * The layer table: every source file belongs to one layer, and the layer is readable from its path.
 * Under `src/`, the folder names the layer (`src/core/`, `src/services/`, `src/adapters/`); the
 * files directly in `src/` and `src/cli/` are the composition root and entry point. The top-level
 * folders the user fixed keep theirs: `db/` storage, `seeds/` the seed importer (a service),
 * `commands/` and `jobs/` the features. docs/ARCHITECTURE.md draws the same table.
 */
export const LAYERS = ['core', 'db', 'services', 'features', 'adapters', 'root'] as const;
export type Layer = (typeof LAYERS)[number];

export const LAYER_OF: readonly [prefix: string, layer: Layer][] = [
  ['src/core/', 'core'],
  ['db/', 'db'],
  ['src/services/', 'services'],
  ['seeds/', 'services'],
  ['commands/', 'features'],
  ['jobs/', 'features'],
  ['src/adapters/', 'adapters'],
  ['src/', 'root'],
];

export function layerOf(file: string): Layer | undefined {
  return LAYER_OF.find(([prefix]) => file.startsWith(prefix))?.[1];
}
