import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedTestConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedTestConfig,
  defineConfig({
    test: {
      globalSetup: ['./test/global-setup.ts'],
      testTimeout: 30_000,
      // Its files mostly wait on timers and a slow target, not on the CPU: alone, its 26 files
      // wait 240 s in all and use 55 s of CPU (the longest, faults.test.ts, 43 s; the runs
      // against third-party targets are two files, 34 s and 39 s, where one took 89 s of the CI
      // run). On two cores vitest's default of one worker would run them one after another.
      maxWorkers: 4,
    },
  }),
);
