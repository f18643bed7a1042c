import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedTestConfig } from '../vitest.shared.js';

/** `pnpm bench --mutations`: the whole mutation harness, not part of `pnpm test`. */
export default mergeConfig(
  sharedTestConfig,
  defineConfig({ test: { include: ['mutations.measure.ts'], testTimeout: 3_600_000 } }),
);
