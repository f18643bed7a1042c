import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedTestConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedTestConfig,
  defineConfig({
    test: {
      globalSetup: ['./test/global-setup.ts'],
      testTimeout: 30_000,
      // Its files mostly wait on timers and a slow target, not on the CPU: alone, its 25 files
      // wait 240 s in all and use 75 s of CPU (the longest, real-targets.test.ts, 63 s). On two
      // cores vitest's default of one worker would run them one after another.
      maxWorkers: 4,
    },
  }),
);
