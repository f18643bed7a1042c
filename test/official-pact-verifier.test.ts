import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { CONSUMER_NAME, PLACEHOLDER_CREDENTIALS } from '@print-contracts/client/kit';
import { pactCliBinary } from '@print-contracts/consumer-contracts/pact-cli';
import { PROVIDER_STATES_PATH } from '@print-contracts/sample-api/control-surface';
import { killLeftovers, REPO_ROOT as root, start } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Another team's run, with nothing from this kit but `contracts/` and the sample API: the
 * official `pact verifier` CLI, standard flags only, provider states through the sample
 * API's state-change endpoint. The README's section for other teams shows these commands.
 */

const README_PORT = '9090';

/** The contracts' placeholder set as the caller, and a second tenant for the isolation interaction. */
const sampleApiArgs = (port: string) => [
  '--control',
  '--port',
  port,
  '--credentials',
  `${PLACEHOLDER_CREDENTIALS.userId}:${PLACEHOLDER_CREDENTIALS.secret}`,
  '--credentials',
  'other-user-id:other-api-secret',
];

const verifierArgs = (port: string, pactFiles: readonly string[]) => [
  'verifier',
  '--hostname',
  '127.0.0.1',
  '--port',
  port,
  '--state-change-url',
  `http://127.0.0.1:${port}${PROVIDER_STATES_PATH}`,
  '--state-change-teardown',
  ...pactFiles.flatMap((file) => ['--file', file]),
];

/** Every process the tests start, stopped at the end whatever happened. */
const started: number[] = [];

interface PactInteraction {
  readonly description: string;
}

interface VerifierJsonReport {
  readonly result: boolean;
  readonly errors: readonly unknown[];
  readonly interactionResults: readonly { description: string; result: string }[];
}

describe('the official pact verifier CLI against pnpm sample-api --control', () => {
  let pactFiles: string[];
  let expected: { provider: string; descriptions: string[] }[];
  let scratch: string;

  beforeAll(async () => {
    const names = (await readdir(join(root, 'contracts'))).filter((name) => name.endsWith('.json')).sort();
    pactFiles = names.map((name) => `contracts/${name}`);
    expected = await Promise.all(
      pactFiles.map(async (file) => {
        const pact = JSON.parse(await readFile(join(root, file), 'utf8')) as {
          provider: { name: string };
          interactions: PactInteraction[];
        };
        return {
          provider: pact.provider.name,
          descriptions: pact.interactions.map((interaction) => interaction.description),
        };
      }),
    );
    scratch = await mkdtemp(join(tmpdir(), 'official-pact-verifier-'));
  });

  afterAll(async () => {
    await killLeftovers(started);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('the README shows the commands this test runs', async () => {
    const readme = (await readFile(join(root, 'README.md'), 'utf8')).replace(/ \\\n\s*/g, ' ');
    expect(readme).toContain(`pnpm sample-api ${sampleApiArgs(README_PORT).join(' ')}`);
    // `pnpm --filter … exec` runs in the package's folder, so the README's paths climb out of it.
    const fromPackage = pactFiles.map((file) => `../../${file}`);
    expect(readme).toContain(`exec pact ${verifierArgs(README_PORT, fromPackage).join(' ')}`);
  });

  it('verifies every interaction of contracts/ with only standard flags', async () => {
    // `pnpm sample-api` builds, then runs exactly this (turbo has built it before the root tests).
    const api = start(process.execPath, ['packages/sample-api/dist/cli.js', ...sampleApiArgs('0')]);
    started.push(api.pid);
    const port = await api.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)\/api/);
    await api.waitFor(/Press Ctrl-C/);

    // The JSON report is asked for through the environment, so the command stays the README's.
    const report = join(scratch, 'verifier-report.json');
    const verifier = start(pactCliBinary(), verifierArgs(port, pactFiles), {
      PACT_VERIFIER_JSON_REPORT: report,
    });
    started.push(verifier.pid);
    const { code } = await verifier.exited;
    api.child.kill('SIGTERM');
    expect((await api.exited).code).toBe(0);

    // The verifier colours its output even into a pipe.
    const printed = stripVTControlCharacters(`${verifier.output.stdout}${verifier.output.stderr}`);
    expect(code, printed).toBe(0);
    for (const { provider } of expected) {
      expect(printed).toContain(`Verifying a pact between ${CONSUMER_NAME} and ${provider}`);
    }
    const results = JSON.parse(await readFile(report, 'utf8')) as VerifierJsonReport;
    const all = expected.flatMap(({ descriptions }) => descriptions);
    expect(all.length).toBeGreaterThan(0);
    expect(results.errors).toEqual([]);
    expect(results.interactionResults.filter(({ result }) => result !== 'OK')).toEqual([]);
    expect(results.interactionResults.map(({ description }) => description).sort()).toEqual(all.sort());
    expect(results.result).toBe(true);
  });
});
