import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import parseChangeset from '@changesets/parse';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const folder = join(root, '.changeset');
const files = (await readdir(folder)).filter((name) => name.endsWith('.md') && name !== 'README.md');
const workspace = new Set(
  await Promise.all(
    // Only package folders: the packaging test's deploy can leave a stray folder here meanwhile.
    (await readdir(join(root, 'packages')))
      .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
      .map(
        async (dir) =>
          (
            JSON.parse(await readFile(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
              name: string;
            }
          ).name,
      ),
  ),
);

// A formatter once turned a front matter into a Markdown heading: `pnpm changeset version` then refuses the file.
describe('the pending changesets', () => {
  it.each(files)('%s names workspace packages in a front matter changesets can read', async (name) => {
    const { releases, summary } = parseChangeset(await readFile(join(folder, name), 'utf8'));
    expect(releases.length).toBeGreaterThan(0);
    for (const release of releases) expect(workspace).toContain(release.name);
    expect(summary.length).toBeGreaterThan(0);
  });
});
