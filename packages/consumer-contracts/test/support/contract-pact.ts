import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiVersion } from '@print-contracts/client';
import { inject } from 'vitest';
import { ContractPact } from '../../src/contract-pact.js';
import './provided-context.js';

/**
 * The pact for `version`, written into this run's pact directory, in a subdirectory of its
 * own for the calling test file (`import.meta.url`): test files may run in parallel, and
 * each only ever merges into its own small files.
 */
export function contractPact<V extends ApiVersion>(version: V, testFileUrl: string): ContractPact<V> {
  const dir = `${inject('pactDir')}/${basename(fileURLToPath(testFileUrl), '.test.ts')}`;
  return new ContractPact(version, { dir });
}
