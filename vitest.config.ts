import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedTestConfig } from './vitest.shared.js';

/** Root-level tests: the workspace as a whole (packaging, reliability across packages). */
export default mergeConfig(
  sharedTestConfig,
  defineConfig({
    test: {
      include: ['test/**/*.test.ts'],
      testTimeout: 60_000,
      hookTimeout: 240_000,
    },
  }),
);
