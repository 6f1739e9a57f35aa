/**
 * The console shows a reply's pictures as files: each PNG is written under DATA_DIR/pictures (the
 * same name overwrites the last one: the same picture asked again) and its path is printed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReplyFile } from '../../core/reply.ts';

/** Writes the files; returns each file's absolute path by name. */
export async function savePictures(files: readonly ReplyFile[] | undefined, dir: string): Promise<Map<string, string>> {
  const saved = new Map<string, string>();
  if (!files?.length) return saved;
  await mkdir(dir, { recursive: true });
  for (const f of files) {
    // Names are built by the bot ([a-z0-9-].png); basename keeps a wrong one inside the folder anyway.
    const file = path.resolve(dir, path.basename(f.name));
    await writeFile(file, f.data);
    saved.set(f.name, file);
  }
  return saved;
}
