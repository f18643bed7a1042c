import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Path of the official `pact` binary shipped in `@pact-foundation/pact-cli` (the platform
 * package holds it). Spawned directly rather than through the package's Node launcher, so
 * that stopping it stops the server and no orphan is left.
 */
export function pactCliBinary(): string {
  const standalone = require('@pact-foundation/pact-cli/src/pact-standalone') as {
    standalone: () => { pactFullPath: string };
  };
  return standalone.standalone().pactFullPath;
}
