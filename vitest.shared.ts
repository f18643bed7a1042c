import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = fileURLToPath(new URL('./packages', import.meta.url));

/**
 * Tests import sibling packages from their TypeScript sources, so a test run never
 * depends on a stale build of another package.
 */
export const sharedTestConfig = defineConfig({
  resolve: {
    // `@print-contracts/x` → packages/x/src/index.ts, `@print-contracts/x/entry` → packages/x/src/entry.ts.
    alias: [
      { find: /^@print-contracts\/([^/]+)\/([^/]+)$/, replacement: `${packages}/$1/src/$2.ts` },
      { find: /^@print-contracts\/([^/]+)$/, replacement: `${packages}/$1/src/index.ts` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 15_000,
    hookTimeout: 30_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
    // A worker keeps its modules from one test file to the next: no test mocks a module or
    // changes a global. Re-importing the kit for every file cost the suite 147 s of import time
    // (summed over its vitest runs), 54 s without; `pnpm test` took 0.77 of its CPU time.
    isolate: false,
  },
});
