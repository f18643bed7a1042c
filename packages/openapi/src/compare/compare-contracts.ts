import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocumentError } from '../errors/document-error.js';
import { isJsonObject, type JsonObject } from '../schemas/json-schema.js';
import { type ComparisonFinding, comparePact } from './compare-pact.js';

/** The committed `contracts/` folder with the pact files, at the top of the monorepo. */
export const PACTS_DIR = fileURLToPath(new URL('../../../../contracts/', import.meta.url));

/** What checking one pact file against its document found. */
export interface PactComparison {
  /** The pact's file name in its folder. */
  readonly pact: string;
  /** The document's file name it was checked against. */
  readonly document: string;
  readonly interactions: number;
  readonly findings: readonly ComparisonFinding[];
}

function readJson(path: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DocumentError(`Could not read ${path}: ${(error as Error).message.split('\n')[0]}`, {
      cause: error,
    });
  }
  if (!isJsonObject(value)) throw new DocumentError(`${path} does not hold a JSON object`);
  return value;
}

/**
 * Checks every pact file in `pactsDir` (`*.json`) against the document of the same provider
 * in `openapiDir` (`<provider name>.json`, e.g. `print-order-api-v2.json`), interaction by
 * interaction. A pact whose provider has no document is a `DocumentError`: every pact must
 * be checked.
 */
export async function compareContracts(
  pactsDir: string = PACTS_DIR,
  openapiDir: string = join(pactsDir, 'openapi'),
): Promise<PactComparison[]> {
  const pactFiles = readdirSync(pactsDir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  const comparisons: PactComparison[] = [];
  for (const file of pactFiles) {
    const pact = readJson(join(pactsDir, file));
    const provider = isJsonObject(pact.provider) ? pact.provider.name : undefined;
    if (typeof provider !== 'string') throw new DocumentError(`${file} names no provider`);
    const documentFile = `${provider}.json`;
    let document: JsonObject;
    try {
      document = readJson(join(openapiDir, documentFile));
    } catch (error) {
      throw new DocumentError(`No OpenAPI document for ${file}: expected ${documentFile} in ${openapiDir}`, {
        cause: error,
      });
    }
    const interactions = Array.isArray(pact.interactions) ? pact.interactions.length : 0;
    comparisons.push({
      pact: file,
      document: documentFile,
      interactions,
      findings: await comparePact(document, pact),
    });
  }
  return comparisons;
}

/** One line per finding: `error response.body.incompatible: <pact> "<interaction>": <message> (at …)`. */
export function formatFindings(comparisons: readonly PactComparison[]): string {
  return comparisons
    .flatMap(({ pact, findings }) =>
      findings.map(
        (finding) =>
          `${finding.type} ${finding.code}: ${pact} "${finding.interaction ?? '(pact)'}": ${finding.message}${finding.pactLocation ? ` (at ${finding.pactLocation})` : ''}`,
      ),
    )
    .join('\n');
}
