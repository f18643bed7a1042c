import { fileURLToPath } from 'node:url';
import { readGenerated, writeGenerated } from '@print-contracts/openapi';
import { renderContractsReadme } from './contracts-readme.js';
import { collectPacts, serialisePact } from './pact-files.js';

/** The committed `contracts/` folder at the top of the monorepo. */
export const CONTRACTS_DIR = fileURLToPath(new URL('../../../contracts/', import.meta.url));

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
