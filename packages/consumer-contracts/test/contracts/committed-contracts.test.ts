import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { diffContracts, formatChanges } from '../../src/contract-changes.js';
import { scanForCredentials, secretsFromEnv } from '../../src/credential-scan.js';
import { CONTRACTS_DIR } from '../../src/pact-files.js';
import { generateContracts, readContracts, writeContracts } from '../support/contracts-output.js';
import '../support/provided-context.js';
import { RUN_SECRETS } from '../support/run-secrets.js';

/** The interaction test files (`test/*.test.ts`), by base name. */
function interactionFiles(): string[] {
  const testDir = fileURLToPath(new URL('..', import.meta.url));
  return readdirSync(testDir)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => name.slice(0, -'.test.ts'.length));
}

/**
 * Runs after the interaction files (vitest project group 1): turns this run's pacts into
 * contracts and holds them against the committed `contracts/`. `pnpm contracts` runs the
 * suite with `--update`, which writes them there first.
 */
describe('the committed contracts', () => {
  let generated: Map<string, string>;

  beforeAll(() => {
    // Each interaction file writes its pacts into a subdirectory named after it; a missing one
    // means that file has not run (yet) or all of its interactions failed.
    const written = new Set(readdirSync(inject('pactDir')));
    const missing = interactionFiles().filter((name) => !written.has(name));
    if (missing.length > 0) {
      throw new Error(
        `No pacts from ${missing.map((name) => `test/${name}.test.ts`).join(', ')}: run the whole suite, in its project order (its interactions first), and fix failing interactions first`,
      );
    }
    generated = generateContracts(inject('pactDir'));
    if (inject('updateContracts')) writeContracts(generated, CONTRACTS_DIR);
  });

  it('are what the suite generates (run pnpm contracts after changing an interaction)', () => {
    const changes = diffContracts(readContracts(CONTRACTS_DIR), generated);
    if (changes.length > 0)
      console.error(`contracts/ is stale; run pnpm contracts:\n${formatChanges(changes)}`);
    expect(changes, formatChanges(changes)).toEqual([]);
  });

  it('hold no credential-looking value, committed or generated', () => {
    const files = new Map([
      ...[...readContracts(CONTRACTS_DIR)].map(([name, text]) => [`contracts/${name}`, text] as const),
      ...[...generated].map(([name, text]) => [`generated/${name}`, text] as const),
    ]);
    expect(files.size).toBeGreaterThan(0);
    expect(scanForCredentials(files, secretsFromEnv())).toEqual([]);
  });

  it('hold none of the secrets the suite ran with, in any pact file this run wrote or contract it generated', () => {
    // The suite really ran with them: a scan for values it never had could not fail.
    expect(
      secretsFromEnv()
        .map((secret) => secret.value)
        .sort(),
    ).toEqual(Object.values(RUN_SECRETS).sort());
    const pactDir = inject('pactDir');
    const written = readdirSync(pactDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    expect(written.length).toBeGreaterThan(0);
    const texts = [
      ...written.map((file) => [file, readFileSync(file, 'utf8')] as const),
      ...[...generated].map(([name, text]) => [`generated/${name}`, text] as const),
    ];
    const values = Object.values(RUN_SECRETS);
    const leaking = texts.filter(([, text]) => values.some((value) => text.includes(value)));
    expect(leaking.map(([file]) => file)).toEqual([]);
  });
});
