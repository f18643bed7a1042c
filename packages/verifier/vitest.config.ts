import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedTestConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedTestConfig,
  defineConfig({
    test: {
      globalSetup: ['./test/global-setup.ts'],
      testTimeout: 30_000,
      // Its files mostly wait on child processes, timers and a slow target, not on the CPU: on
      // two cores vitest's default of one worker would run them one after another.
      maxWorkers: 3,
    },
  }),
);
