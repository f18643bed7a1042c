import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type PactFile, type PactInteraction, readPact } from '../pact-files.js';

/**
 * Response header by which the Pact stub server tells the front which interaction it chose.
 * Internal: the front removes it and names the interaction in `X-Pact-Interaction` instead.
 */
export const CHOSEN_HEADER = 'x-print-contracts-chosen';

/** One interaction the stub serves, as the front finds it again from the chosen header. */
export interface ServedInteraction {
  readonly provider: string;
  readonly interaction: PactInteraction;
}

/** The copies of the pact files the stub server loads, and what each chosen header names. */
export interface ServedPacts {
  readonly pacts: readonly PactFile[];
  /** The temporary folder holding the copies. */
  readonly dir: string;
  readonly files: readonly string[];
  readonly byTag: ReadonlyMap<string, ServedInteraction>;
  /** Removes the copies. Idempotent. */
  remove(): void;
}

/**
 * Copies the pact files into a fresh temporary folder, each interaction's response carrying
 * one more header that names it. Requests, matching rules and every other part of the
 * response stay as the contracts have them, so the official stub server chooses exactly as
 * it would on the originals, and the front can then check the request against the very
 * interaction it chose.
 */
export function writeServedPacts(files: readonly string[]): ServedPacts {
  const pacts = files.map((file) => readPact(file));
  const dir = mkdtempSync(join(tmpdir(), 'print-contracts-stub-'));
  const byTag = new Map<string, ServedInteraction>();
  const served = pacts.map((pact, fileIndex) => {
    const interactions = pact.interactions.map((interaction, index) => {
      const tag = `${fileIndex}.${index}`;
      byTag.set(tag, { provider: pact.provider.name, interaction });
      const response = {
        ...interaction.response,
        headers: { ...interaction.response.headers, [CHOSEN_HEADER]: [tag] },
      };
      return { ...interaction, response };
    });
    const path = join(dir, `${fileIndex}-${basename(files[fileIndex] ?? 'pact.json')}`);
    writeFileSync(path, JSON.stringify({ ...pact, interactions }));
    return path;
  });
  return {
    pacts,
    dir,
    files: served,
    byTag,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
