import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import {
  CONSUMER_NAME,
  PLACEHOLDER_CREDENTIALS,
  pactCliBinary,
} from '@print-contracts/consumer-contracts/vocabulary';
import { PROVIDER_STATES_PATH } from '@print-contracts/sample-api/control-surface';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Another team's run, with nothing from this kit but `contracts/` and the sample API: the
 * official `pact verifier` CLI, standard flags only, provider states through the sample
 * API's state-change endpoint. The README's section for other teams shows these commands.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
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

interface Started {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

function start(command: string, args: readonly string[], env: Record<string, string> = {}): Started {
  const child = spawn(command, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PACT_DO_NOT_TRACK: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the first match of `pattern` in the output; rejects if the process ends first. */
async function waitForOutput(run: Started, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const match = pattern.exec(run.output());
    if (match) return match;
    if (run.child.exitCode !== null) throw new Error(`exited ${run.child.exitCode}: ${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

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
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('the README shows the commands this test runs', async () => {
    const readme = (await readFile(join(root, 'README.md'), 'utf8')).replace(/ \\\n\s*/g, ' ');
    expect(readme).toContain(`pnpm sample-api ${sampleApiArgs(README_PORT).join(' ')}`);
    expect(readme).toContain(`pact ${verifierArgs(README_PORT, pactFiles).join(' ')}`);
  });

  it('verifies every interaction of contracts/ with only standard flags', async () => {
    // `pnpm sample-api` builds, then runs exactly this (turbo has built it before the root tests).
    const api = start(process.execPath, ['packages/sample-api/dist/cli.js', ...sampleApiArgs('0')]);
    const [, port] = await waitForOutput(api, /listening on http:\/\/127\.0\.0\.1:(\d+)\/api/);
    await waitForOutput(api, /Press Ctrl-C/);

    // The JSON report is asked for through the environment, so the command stays the README's.
    const report = join(scratch, 'verifier-report.json');
    const verifier = start(pactCliBinary(), verifierArgs(port as string, pactFiles), {
      PACT_VERIFIER_JSON_REPORT: report,
    });
    const code = await verifier.exited;
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);

    expect(code, verifier.output()).toBe(0);
    // The verifier colours its output even into a pipe.
    const printed = stripVTControlCharacters(verifier.output());
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
