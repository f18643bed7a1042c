import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A scratch folder for one test file (pacts, reports, ledger), removed afterwards. */
export async function workspace() {
  const dir = await mkdtemp(join(tmpdir(), 'print-contracts-test-'));
  return {
    dir,
    path: (...parts: string[]) => join(dir, ...parts),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
