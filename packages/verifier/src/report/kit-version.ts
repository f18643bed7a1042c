import { createRequire } from 'node:module';

/** The verifier's package version (the kit's), for `--version` and every report it writes. */
export const KIT_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;

/** What wrote a report: `@print-contracts/verifier 0.1.0`. */
export const KIT_NAME = '@print-contracts/verifier';
