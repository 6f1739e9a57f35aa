/**
 * The font files every picture is drawn with, shipped in this folder (DejaVu Sans 2.37, regular and
 * bold; licence in fonts/LICENSE). The rasteriser loads only these, never the system's fonts, so a
 * picture is identical on every machine. Found from the source (`./fonts`) and from the compiled
 * bundle one folder below the package root (`../src/services/render/fonts`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];

function fontDir(): string {
  const candidates = ['./fonts/', '../src/services/render/fonts/'].map((rel) =>
    fileURLToPath(new URL(rel, import.meta.url)),
  );
  const found = candidates.find((dir) => FILES.every((f) => existsSync(`${dir}${f}`)));
  if (!found)
    throw new Error(
      `The pictures' font files are missing: looked for ${FILES.join(', ')} in ${candidates.join(' and ')}`,
    );
  return found;
}

let cached: string[] | undefined;

/** The absolute paths of the shipped font files. */
export function fontFiles(): string[] {
  cached ??= FILES.map((f) => `${fontDir()}${f}`);
  return cached;
}
