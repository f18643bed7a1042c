import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
export function readContracts(dir: string = CONTRACTS_DIR): Map<string, string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return new Map();
  }
  return new Map(
    names
      .filter(isGenerated)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

/**
 * Makes `dir` hold exactly `contracts`: writes each file, and deletes generated files (pact
 * files, README) the suite no longer produces, so a removed interaction or version never
 * lingers. Other files in `dir` are left alone.
 */
export function writeContracts(contracts: ReadonlyMap<string, string>, dir: string = CONTRACTS_DIR): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (isGenerated(name) && !contracts.has(name)) rmSync(join(dir, name));
  }
  for (const [name, content] of contracts) writeFileSync(join(dir, name), content);
}
