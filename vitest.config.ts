import { defineConfig } from 'vitest/config';

/** Root-level tests: the workspace as a whole (packaging), not one package. */
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 240_000 },
});
