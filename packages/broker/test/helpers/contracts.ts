import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pactFileName } from '@print-contracts/client/kit';

const CONTRACTS = fileURLToPath(new URL('../../../../contracts/', import.meta.url));

/** Copies the committed pact files, one per API version, into `dir`: what `contracts:publish` publishes. */
export async function writeFixturePacts(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const version of ['v1', 'v2'] as const) {
    await copyFile(join(CONTRACTS, pactFileName(version)), join(dir, pactFileName(version)));
  }
  return dir;
}
