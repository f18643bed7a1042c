import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ComparisonInputs } from '../compare/compare.js';
import { readBaseline, readKnownFindings } from '../compare/comparison-files.js';
import { defaultContractsDir } from './paths.js';

/** `--baseline` and `--known-findings` (or the committed default), read and checked before the run starts. */
export function comparisonInputs(
  flags: { readonly baseline?: string | undefined; readonly 'known-findings'?: string | undefined },
  cwd: string,
): ComparisonInputs {
  // Read when present and no --known-findings names another file.
  const committed = join(defaultContractsDir(cwd), 'known-findings', 'known-findings.json');
  const known = flags['known-findings'];
  return {
    baseline: flags.baseline === undefined ? undefined : readBaseline(flags.baseline, cwd),
    knownFindings:
      known !== undefined
        ? readKnownFindings(known, cwd)
        : existsSync(committed)
          ? readKnownFindings(committed, cwd, 'the known findings')
          : undefined,
  };
}
