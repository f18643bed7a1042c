import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedTestConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedTestConfig,
  defineConfig({ test: { globalSetup: ['./test/global-setup.ts'], testTimeout: 30_000 } }),
);
