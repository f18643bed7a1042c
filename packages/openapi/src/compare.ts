import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION_HEADER_EXTENSION, type VersionHeader } from './document/build-document.js';
import { DocumentError } from './errors/document-error.js';
import { isJsonObject, type JsonObject, parseJsonObject } from './json.js';
import { PACTS_DIR } from './output/files.js';

/** One thing PactFlow's comparator found about one interaction. */
export interface ComparisonFinding {
  /** `error` fails the check; `warning` and `info` are reported only. */
  readonly type: 'error' | 'warning' | 'info';
  /**
   * The comparator's stable code, e.g. `response.body.incompatible`, or the kit's own
   * `request.version-header.missing` / `request.version-header.incompatible`.
   */
  readonly code: string;
  readonly message: string;
  /** The interaction's description, when the finding is about one. */
  readonly interaction: string | undefined;
  /** Where in the pact, e.g. `[root].interactions[3].response.body.lines[0].id`. */
  readonly pactLocation: string | undefined;
  /** Where in the document, e.g. `[root].paths./orders/{id}.get.responses.2XX.content…`. */
  readonly documentLocation: string | undefined;
}

/** The comparator's API as used here: its published types do not resolve under NodeNext (extensionless re-exports). */
interface ComparatorModule {
  Comparator: new (options: { oas?: unknown }) => { compare(pact: unknown): AsyncIterable<ComparatorResult> };
}

interface ComparatorResult {
  type: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  mockDetails?: { interactionDescription?: string | null; location?: string };
  specDetails?: { location?: string };
}

/**
 * The kit's own check of the version header, beside the comparator's. PactFlow's comparator
 * reads `Accept` as content negotiation only (the documents' `application/*` range takes every
 * version alike), so a pact of the wrong version would pass it; the kit holds each
 * interaction's header to the document's `x-version-header`. The pact is left as it is.
 */
function checkVersionHeader(pact: unknown, header: VersionHeader): ComparisonFinding[] {
  const findings: ComparisonFinding[] = [];
  const interactions = isJsonObject(pact) && Array.isArray(pact.interactions) ? pact.interactions : [];
  interactions.forEach((interaction, index) => {
    if (!isJsonObject(interaction) || !isJsonObject(interaction.request)) return;
    const headers = isJsonObject(interaction.request.headers) ? interaction.request.headers : {};
    const key = Object.keys(headers).find((name) => name.toLowerCase() === header.name.toLowerCase());
    const raw = key === undefined ? undefined : headers[key];
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    const at = {
      interaction: typeof interaction.description === 'string' ? interaction.description : undefined,
      pactLocation: `[root].interactions[${index}].request.headers.${header.name}`,
      documentLocation: `[root].${VERSION_HEADER_EXTENSION}`,
    };
    if (value === undefined && header.required) {
      const message = `Request has no ${header.name} header; the document's version needs "${header.value}"`;
      findings.push({ type: 'error', code: 'request.version-header.missing', message, ...at });
    } else if (value !== undefined && value !== header.value) {
      const message = `Request ${header.name} "${String(value)}" is not the document's version header "${header.value}"`;
      findings.push({ type: 'error', code: 'request.version-header.incompatible', message, ...at });
    }
  });
  return findings;
}

/**
 * Checks every interaction of one pact against one OpenAPI document with PactFlow's
 * open-source comparator (the engine of its bi-directional contract testing): path and
 * method, credentials, headers, query, request body, status, response headers and body. A
 * response body may hold only what the document describes, so a pact that expects a field
 * the document lacks is an error. The version header is checked by the kit itself against the
 * document's `x-version-header` as well (see `checkVersionHeader`); the pact's `Accept` reaches
 * the comparator as it is. Both inputs are left as they were.
 */
export async function comparePact(document: JsonObject, pact: unknown): Promise<ComparisonFinding[]> {
  // Loaded on first use: its bundle is large, and most importers of this package never compare.
  const { Comparator } = (await import('@pactflow/openapi-pact-comparator')) as unknown as ComparatorModule;
  // The comparator writes into the document it is given (merged parameters, security), so it gets a copy.
  const comparator = new Comparator({ oas: structuredClone(document) });
  const header = document[VERSION_HEADER_EXTENSION];
  const findings =
    isJsonObject(header) && typeof header.name === 'string' && typeof header.value === 'string'
      ? checkVersionHeader(pact, {
          name: header.name,
          value: header.value,
          required: header.required !== false,
        })
      : [];
  for await (const found of comparator.compare(structuredClone(pact))) {
    findings.push({
      type: found.type,
      code: found.code,
      message: found.message,
      interaction: found.mockDetails?.interactionDescription ?? undefined,
      pactLocation: found.mockDetails?.location,
      documentLocation: found.specDetails?.location,
    });
  }
  return findings;
}

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
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DocumentError(`Could not read ${path}: ${(error as Error).message.split('\n')[0]}`, {
      cause: error,
    });
  }
  return parseJsonObject(text, path);
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
