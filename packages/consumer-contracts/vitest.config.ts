import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { sharedTestConfig } from '../../vitest.shared.js';
import './test/support/provided-context.js';
import { RUN_SECRETS } from './test/support/run-secrets.js';

/**
 * Each run writes its pacts into a fresh directory, so no interaction of an earlier run
 * lingers. Vitest evaluates this file once per project, so the first evaluation picks the
 * directory and leaves it in the environment for the others.
 */
const PACT_DIR_VARIABLE = 'PRINT_CONTRACTS_PACT_DIR';
process.env[PACT_DIR_VARIABLE] ??= mkdtempSync(join(tmpdir(), 'print-contracts-pacts-'));
const pactDir = process.env[PACT_DIR_VARIABLE];

/**
 * Three groups, in order: the interactions (one file per operation) write the pacts; then the
 * contract checks compare them with the committed `contracts/` (or write them there with
 * `--update`) and look for credentials; then the stub serves the committed ones.
 */
export default defineConfig({
  ...sharedTestConfig,
  test: {
    ...sharedTestConfig.test,
    // A real secret in the suite's own environment: the contract checks prove it reaches no pact.
    env: { ...sharedTestConfig.test?.env, ...RUN_SECRETS },
    // Each project names its own files; the shared pattern would be merged into both.
    include: [],
    provide: { pactDir, updateContracts: false },
    globalSetup: ['./test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'interactions', include: ['test/*.test.ts'], sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'contracts', include: ['test/contracts/**/*.test.ts'], sequence: { groupOrder: 1 } },
      },
      {
        // Serves the committed contracts, so it runs after the contract checks may have rewritten them.
        extends: true,
        test: { name: 'stub', include: ['test/stub/**/*.test.ts'], sequence: { groupOrder: 2 } },
      },
    ],
  },
});
