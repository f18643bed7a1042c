import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

/**
 * Tests import sibling packages from their TypeScript sources, so a test run never
 * depends on a stale build of another package.
 */
export const sharedTestConfig = defineConfig({
  resolve: {
    // The subpath first: a bare package name would also match it as a prefix.
    alias: {
      '@print-contracts/consumer-contracts/vocabulary': source('consumer-contracts').replace(
        /index\.ts$/,
        'vocabulary.ts',
      ),
      '@print-contracts/client': source('client'),
      '@print-contracts/sample-api': source('sample-api'),
      '@print-contracts/consumer-contracts': source('consumer-contracts'),
      '@print-contracts/verifier': source('verifier'),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 15_000,
    hookTimeout: 30_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
