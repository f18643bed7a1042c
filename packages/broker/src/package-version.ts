import { createRequire } from 'node:module';

/** This package and its version, for `--version`. */
export const KIT_PACKAGE = '@print-contracts/broker';
export const KIT_PACKAGE_VERSION = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;
