import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

const nodeOf = (path: string) =>
  path.includes('/') ? (path.split('/')[0] as string) : path.replace(/\.(ts|js|cjs)$/, '');

/** Every source file, with its folder (the stage or the service it belongs to; a file at the top is its own) and its text. */
const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(ts|cjs)$/.test(entry.name))
  .map((entry) => {
    const path = relative(SRC, join(entry.parentPath, entry.name));
    return {
      path,
      folder: path.includes('/') ? (path.split('/')[0] as string) : '.',
      text: readFileSync(join(SRC, path), 'utf8'),
    };
  });

/** Which folders each folder imports from. */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const edges = graph.get(file.folder) ?? new Set<string>();
    for (const [, target] of file.text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const folder = nodeOf(join(file.path, '..', target as string));
      if (folder !== file.folder) edges.add(folder);
    }
    graph.set(file.folder, edges);
  }
  return graph;
}

describe("the verifier's source", () => {
  it('has no import cycle between its folders: the data flows one way', () => {
    const graph = folderGraph();
    const cycles: string[] = [];
    const visit = (folder: string, path: string[]) => {
      if (path.includes(folder)) {
        cycles.push([...path.slice(path.indexOf(folder)), folder].join(' → '));
        return;
      }
      for (const next of graph.get(folder) ?? []) visit(next, [...path, folder]);
    };
    for (const folder of graph.keys()) visit(folder, []);
    expect(cycles).toEqual([]);
    // The stages read in order from the folder list; none reaches back to an earlier one.
    expect([...(graph.get('plan') ?? [])].sort()).not.toContain('arrange');
    expect([...(graph.get('arrange') ?? [])].sort()).not.toContain('replay');
  });

  it('defines every error class in errors/, each with a stable code', () => {
    const outside = files.filter(
      (file) => file.folder !== 'errors' && /class \w+ extends \w*Error\b/.test(file.text),
    );
    expect(outside.map((file) => file.path)).toEqual([]);
    const errorFiles = files.filter(
      (file) => file.folder === 'errors' && /class \w+ extends (?!CodedError)/.test(file.text),
    );
    for (const file of errorFiles) expect(file.text, file.path).toMatch(/VERIFIER_ERROR_CODES\.\w+/);
  });

  it('casts nothing to never or any', () => {
    expect(files.filter((file) => /\bas (never|any)\b/.test(file.text)).map((file) => file.path)).toEqual([]);
  });
});
