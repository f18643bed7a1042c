import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson, sortKeys } from '@print-contracts/client/kit';
import { PactOutputError } from './errors/index.js';

/** The committed `contracts/` folder at the top of the monorepo. */
export const CONTRACTS_DIR = fileURLToPath(new URL('../../../contracts/', import.meta.url));

/** A list of matching rules on one value. */
export interface PactRuleList {
  combine?: 'AND' | 'OR';
  matchers: Array<Record<string, unknown>>;
}

/** What a V4 request and response both have. */
interface PactMessage {
  headers?: Record<string, string[]>;
  body?: { content?: unknown; contentType?: string; encoded?: boolean | string };
  matchingRules?: Record<string, unknown>;
  generators?: Record<string, unknown>;
}

/** A V4 HTTP interaction: the parts the kit reads; the rest is kept as it is. */
export interface PactInteraction {
  description: string;
  type: string;
  providerStates?: Array<{ name: string; params?: Record<string, unknown> }>;
  request: PactMessage & { method: string; path: string; query?: Record<string, string[]> };
  response: PactMessage & { status: number };
  [key: string]: unknown;
}

/** A V4 pact file. */
export interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata: Record<string, unknown>;
}

/**
 * Reads the pacts the suite wrote under `dir` and merges them into one pact per file name.
 *
 * Each test file writes into its own subdirectory (so parallel test files never merge into
 * one file at once, and each file stays small); a pact file directly in `dir` is read too.
 * Throws `PactOutputError` when two interactions of one pact share a description, or the
 * fragments of one pact disagree on consumer, provider or metadata.
 */
export function collectPacts(dir: string): Map<string, PactFile> {
  const merged = new Map<string, PactFile>();
  /** Which fragment wrote each interaction, by file name and description. */
  const writers = new Map<string, string>();
  for (const { name, path } of pactFragments(dir)) {
    const fragment = readPact(path);
    const pact = merged.get(name) ?? { ...fragment, interactions: [] };
    for (const part of ['consumer', 'provider', 'metadata'] as const) {
      if (canonicalJson(fragment[part]) !== canonicalJson(pact[part])) {
        throw new PactOutputError(`${path} has another ${part} than the other fragments of ${name}`);
      }
    }
    for (const interaction of fragment.interactions) {
      const key = JSON.stringify([name, interaction.description]);
      const earlier = writers.get(key);
      if (earlier !== undefined) {
        throw new PactOutputError(
          `Interaction "${interaction.description}" of ${name} is written by both ${earlier} and ${path}; descriptions must be unique`,
        );
      }
      writers.set(key, path);
      pact.interactions.push(interaction);
    }
    merged.set(name, pact);
  }
  return new Map([...merged].map(([name, pact]) => [name, normalisePact(pact)]));
}

function pactFragments(dir: string): Array<{ name: string; path: string }> {
  const found: Array<{ name: string; path: string }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort(byEntryName)) {
    if (entry.isDirectory()) {
      for (const file of readdirSync(join(dir, entry.name)).sort()) {
        if (file.endsWith('.json')) found.push({ name: file, path: join(dir, entry.name, file) });
      }
    } else if (entry.name.endsWith('.json')) {
      found.push({ name: entry.name, path: join(dir, entry.name) });
    }
  }
  return found;
}

const byEntryName = (a: { name: string }, b: { name: string }) => compareText(a.name, b.name);

/** Reads one pact file; `PactOutputError` when it is not JSON or not a V4 pact. */
export function readPact(path: string): PactFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new PactOutputError(`${path} is not a readable JSON file`, { cause: error });
  }
  return asPact(parsed, path);
}

/** Checks that `value` has the shape of a pact file; `PactOutputError` names `source` when not. */
export function asPact(value: unknown, source: string): PactFile {
  const pact = value as Partial<PactFile> | null;
  if (
    typeof pact !== 'object' ||
    pact === null ||
    typeof pact.consumer?.name !== 'string' ||
    typeof pact.provider?.name !== 'string' ||
    !Array.isArray(pact.interactions) ||
    pact.interactions.some((interaction) => typeof interaction?.description !== 'string')
  ) {
    throw new PactOutputError(`${source} is not a pact file (consumer, provider, interactions)`);
  }
  // What everything after reads of an HTTP interaction: its request's method and path, its status.
  const broken = pact.interactions.find(
    ({ request, response }) =>
      typeof request?.method !== 'string' ||
      typeof request.path !== 'string' ||
      typeof response?.status !== 'number',
  );
  if (broken) {
    throw new PactOutputError(
      `${source}: interaction "${broken.description.slice(0, 80)}" has no request method and path or no response status`,
    );
  }
  return { metadata: {}, ...pact } as PactFile;
}

/**
 * The canonical form of a pact: interactions sorted by description (then provider states),
 * object keys sorted. Only the order changes, never a rule, value or generator Pact wrote, so
 * two runs of the suite give the same bytes whatever order the tests ran in.
 */
export function normalisePact(pact: PactFile): PactFile {
  const interactions = [...pact.interactions].sort(
    (a, b) =>
      compareText(a.description, b.description) ||
      compareText(canonicalJson(a.providerStates ?? []), canonicalJson(b.providerStates ?? [])),
  );
  return sortKeys({ ...pact, interactions }) as PactFile;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The bytes of a pact file: two-space JSON with sorted keys and a final newline. */
export const serialisePact = (pact: PactFile) => `${JSON.stringify(sortKeys(pact), null, 2)}\n`;
