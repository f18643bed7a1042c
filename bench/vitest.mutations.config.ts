import { defineConfig } from 'vitest/config';
import { sharedTestConfig } from '../vitest.shared.js';

/**
 * `pnpm bench --mutations`: the whole mutation harness, not part of `pnpm test`. Its `include`
 * replaces the shared one (merging the configs would add every bench test to the harness's run).
 */
export default defineConfig({
  ...sharedTestConfig,
  test: { ...sharedTestConfig.test, include: ['mutations.measure.ts'], testTimeout: 3_600_000 },
});
