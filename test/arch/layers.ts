/**
 * The layer table: every source file belongs to one layer, by its longest matching path prefix.
 * A module may import values only from its own layer or a lower one; `import type` carries no
 * runtime dependency and may name any shape. docs/ARCHITECTURE.md draws the same table.
 */
export const LAYERS = ['core', 'db', 'services', 'features', 'adapters', 'root'] as const;
export type Layer = (typeof LAYERS)[number];

export const LAYER_OF: readonly [prefix: string, layer: Layer][] = [
  // core: pure rules and shapes, no I/O
  ['src/papers/', 'core'],
  ['src/digest/', 'core'],
  ['src/subscriptions/', 'core'],
  ['src/views/', 'core'],
  ['src/pictures/', 'core'],
  ['src/delivery/', 'core'],
  ['src/ranking/', 'core'],
  ['src/llm/port.ts', 'core'],
  ['src/reply.ts', 'core'],
  ['src/errors.ts', 'core'],
  ['src/command.ts', 'core'],
  ['src/options.ts', 'core'],
  ['src/usage.ts', 'core'],
  ['src/config.ts', 'core'],
  ['src/log.ts', 'core'],
  ['src/progress.ts', 'core'],
  ['src/deps.ts', 'core'],
  ['src/dispatch.ts', 'core'],
  ['src/custom-id.ts', 'core'],
  ['src/calendar.ts', 'core'],
  ['src/ask/prompt.ts', 'core'],
  ['src/ops/health.ts', 'core'],
  ['seeds/types.ts', 'core'],
  // db: storage only (tables, migrations, queries that take and return rows)
  ['db/', 'db'],
  // services: I/O on behalf of the features (HTTP, the model, delivery, ingest, import)
  ['src/sources/', 'services'],
  ['src/llm/', 'services'],
  ['src/summarize/', 'services'],
  ['src/ask/', 'services'],
  ['src/outbox/', 'services'],
  ['src/search/', 'services'],
  ['src/relevance/', 'services'],
  ['src/render/', 'services'],
  ['src/relevance/prompt.ts', 'core'],
  ['src/relevance/examples.ts', 'core'],
  ['src/ingest/', 'services'],
  ['src/ops/', 'services'],
  ['seeds/', 'services'],
  // features: slash commands and scheduled jobs
  ['commands/', 'features'],
  ['jobs/', 'features'],
  // adapters: Discord and the console, over the same commands
  ['src/discord/', 'adapters'],
  ['src/console/', 'adapters'],
  ['src/ops/server.ts', 'adapters'],
  // root: the composition root, the entry point and its subcommands (each opens the app)
  ['src/app.ts', 'root'],
  ['src/cli.ts', 'root'],
  ['src/cli/', 'root'],
];

export function layerOf(file: string): Layer | undefined {
  let best: [string, Layer] | undefined;
  for (const entry of LAYER_OF) if (file.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1];
}
