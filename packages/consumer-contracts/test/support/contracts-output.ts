import { readGenerated, writeGenerated } from '@print-contracts/openapi';
import { CONTRACTS_DIR, collectPacts, serialisePact } from '../../src/pact-files.js';
import { renderContractsReadme } from './contracts-readme.js';

/*
 * Written by `pnpm contracts` (the suite with `--update`) only: the README's OpenAPI section
 * needs @print-contracts/openapi (and Redocly), a tool nothing needs at run time.
 */

/** The generated README's file name inside `contracts/`. */
export const CONTRACTS_README = 'README.md';

/** Files of `contracts/` that the suite generates: the pact files and their README. */
const isGenerated = (file: string) => file.endsWith('.json') || file === CONTRACTS_README;

/**
 * The contracts for the pacts the suite wrote under `pactDir`: each pact file in canonical
 * form, and the README, as file name → content. Same pacts in, same bytes out.
 */
export function generateContracts(pactDir: string): Map<string, string> {
  const pacts = collectPacts(pactDir);
  const files = new Map<string, string>();
  for (const [name, pact] of pacts) files.set(name, serialisePact(pact));
  files.set(CONTRACTS_README, renderContractsReadme(pacts));
  return files;
}

/** The generated files as committed in `dir` (pact files and README); none when `dir` is absent. */
export const readContracts = (dir: string = CONTRACTS_DIR) => readGenerated(dir, isGenerated);

/**
 * Makes `dir` hold exactly `contracts`: writes each file, and deletes generated files (pact
 * files, README) the suite no longer produces. Other files (VENDOR-NOTES.md) are left alone.
 */
export const writeContracts = (contracts: ReadonlyMap<string, string>, dir: string = CONTRACTS_DIR) =>
  writeGenerated(dir, contracts, isGenerated);
