import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Which files of a folder a generator owns; the others (hand-written notes) are left alone. */
export type IsGenerated = (file: string) => boolean;

/** The generated files as committed in `dir`, by name; none when `dir` is absent. */
export function readGenerated(dir: string, isGenerated: IsGenerated): Map<string, string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return new Map();
  }
  return new Map(
    names
      .filter(isGenerated)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

/**
 * Makes `dir` hold exactly `files` of what the generator owns: writes each, and deletes the
 * generated files no longer produced, so a retired version or interaction never lingers.
 */
export function writeGenerated(
  dir: string,
  files: ReadonlyMap<string, string>,
  isGenerated: IsGenerated,
): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (isGenerated(name) && !files.has(name)) rmSync(join(dir, name));
  }
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
}
