import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { cliEnv, killLeftovers, REPO_ROOT as root, type Started, start } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Block,
  blocksOf,
  commandsOf,
  missingExcerptLines,
  missingSampleLines,
  promisedPrints,
  readMarkers,
  readmeFiles,
  savePath,
  words,
} from './readme/blocks.js';

/**
 * Every fenced block of every README, run from where a reader would run it: shell blocks from
 * the repository root (or from a new project outside it, when marked), examples as programs
 * saved where the README says. What cannot run here carries a visible marker with its reason.
 */

const exec = promisify(execFile);

/** The port READMEs give the sample API (`pnpm sample-api --port 9090`); tests use a free one. */
const README_PORT = '9090';
const LONG_RUNNING = /(^|\s)pnpm (sample-api|stub)(\s|$)/;
const RUNNABLE = new Set(['js', 'mjs', 'javascript']);
const SHELL = new Set(['sh', 'bash', 'shell']);

const blocks = readmeFiles(root).flatMap((file) => blocksOf(root, file));

/** Everything started, stopped at the end whatever happened. */
const started: number[] = [];
/** What each command run so far printed, by its text: an output sample is checked against it. */
const printed = new Map<string, string>();
/** Example blocks a shell block ran (`node PATH`), with what they printed. */
const ranBy = new Map<Block, string>();
let project = '';
let sampleApi: { process: Started; port: string } | undefined;

/**
 * How this machine reaches the npm registry, for the README's `npm install`: without its CA,
 * npm 11 on Node 22 and later retried each manifest over TLS for 70 s before using its cache.
 */
const NETWORK = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTPS_PROXY',
  'https_proxy',
  'NO_PROXY',
  'no_proxy',
];
const network = Object.fromEntries(
  NETWORK.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name] as string]])),
);

const env = (extra: Record<string, string> = {}) =>
  cliEnv({ ...network, TURBO_TELEMETRY_DISABLED: '1', KIT: root, ...extra });

async function sh(command: string, cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await exec('sh', ['-c', command], {
      cwd,
      env: env(),
      maxBuffer: 64 * 1024 * 1024,
      timeout: 240_000,
    });
    return { code: 0, output: stripVTControlCharacters(`${stdout}${stderr}`) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    const output = stripVTControlCharacters(`${failed.stdout ?? ''}${failed.stderr ?? ''}`);
    return { code: typeof failed.code === 'number' ? failed.code : -1, output };
  }
}

/** Starts a command that runs until stopped, and waits until it answers HTTP on its port. */
async function startServer(command: string): Promise<{ process: Started; port: string }> {
  const { env: assigned, argv } = words(command);
  const server = start(argv[0] as string, argv.slice(1), assigned);
  started.push(server.pid);
  const port = await server.waitFor(/http:\/\/127\.0\.0\.1:(\d+)/, 180_000);
  const answer = await fetch(`http://127.0.0.1:${port}/api/orders`);
  await answer.arrayBuffer();
  expect(answer.status, `${command} answers on its port`).toBeGreaterThanOrEqual(200);
  return { process: server, port };
}

/** Stops a server by its PID as Ctrl-C would through `pnpm`: exit status 0, as the READMEs say. */
async function stopServer(server: Started, command: string): Promise<void> {
  server.child.kill('SIGTERM');
  const { code } = await server.exited;
  expect(code, `${command} stops with exit status 0`).toBe(0);
}

/** The sample API the examples' `127.0.0.1:9090` stands for, started once as the READMEs say. */
async function sharedSampleApi(): Promise<string> {
  sampleApi ??= await startServer(`pnpm sample-api --port 0`);
  return sampleApi.port;
}

async function withPorts(text: string, ports: ReadonlyMap<string, string>): Promise<string> {
  let result = text;
  for (const [given, actual] of ports) {
    result = result
      .replaceAll(`127.0.0.1:${given}`, `127.0.0.1:${actual}`)
      .replaceAll(`--port ${given}`, `--port ${actual}`);
  }
  if (result.includes(`127.0.0.1:${README_PORT}`)) {
    result = result.replaceAll(`127.0.0.1:${README_PORT}`, `127.0.0.1:${await sharedSampleApi()}`);
  }
  return result;
}

/** The folder a block's relative paths start from. */
const baseOf = (block: Block) =>
  blocks.some(
    (other) => other.file === block.file && other.line < block.line && readMarkers(other).newProject,
  )
    ? project
    : root;

/** The examples a shell block runs with `node PATH`: for each path, the first saved as it below the block. */
function examplesRunBy(block: Block): { example: Block; path: string }[] {
  const found: { example: Block; path: string }[] = [];
  for (const example of blocks) {
    if (example.file !== block.file || example.line < block.line || !RUNNABLE.has(example.lang)) continue;
    const path = savePath(example);
    if (!path || found.some((earlier) => earlier.path === path)) continue;
    if (new RegExp(`node ${path.replace(/[.]/g, '\\.')}(\\s|$)`, 'm').test(block.text))
      found.push({ example, path });
  }
  return found;
}

/** A "not run" marker names a command whole, or its first words: `pnpm contracts` is not `pnpm contracts:diff`. */
const namesCommand = (name: string, command: string) => command === name || command.startsWith(`${name} `);

async function runShellBlock(block: Block): Promise<void> {
  const markers = readMarkers(block);
  const cwd = markers.newProject ? project : root;
  const ports = new Map<string, string>();
  const servers: { server: Started; command: string }[] = [];
  const examples = examplesRunBy(block);
  const written: string[] = [];
  try {
    for (const { example, path } of examples) {
      const file = resolve(cwd, path);
      await writeFile(file, await withPorts(example.text, ports));
      written.push(file);
    }
    const commands = commandsOf(block.text);
    const unmatched = markers.notRunCommands.filter(
      (name) => !commands.some((command) => namesCommand(name, command.text)),
    );
    expect(unmatched, 'each command a "not run" marker names is in its block').toEqual([]);
    for (const command of commands) {
      if (markers.notRunCommands.some((name) => namesCommand(name, command.text))) continue;
      if (LONG_RUNNING.test(command.text)) {
        const given = /--port (\d+)/.exec(command.text)?.[1];
        const { process: server, port } = await startServer(command.text.replace(/--port \d+/, '--port 0'));
        servers.push({ server, command: command.text });
        if (given) ports.set(given, port);
        continue;
      }
      const text = await withPorts(command.text, ports);
      const key = `${cwd}\n${command.text}`;
      const { code, output } = await sh(text, cwd);
      printed.set(command.text, output);
      printed.set(key, output);
      expect(code, `${command.text} exits 0\n${output}`).toBe(0);
      for (const line of command.prints) {
        for (const fragment of line
          .split('…')
          .map((part) => part.trim())
          .filter(Boolean)) {
          expect(output, `${command.text} prints ${line}`).toContain(fragment);
        }
      }
      for (const { example, path } of examples) {
        if (command.text.includes(`node ${path}`)) ranBy.set(example, output);
      }
    }
  } finally {
    for (const { server, command } of servers.reverse()) await stopServer(server, command);
    await Promise.all(written.map((file) => rm(file, { force: true })));
  }
}

async function runExample(block: Block): Promise<void> {
  const path = savePath(block);
  expect(path, `${block.file}:${block.line} says where to save the example`).toBeDefined();
  const base = baseOf(block);
  const folder = dirname(resolve(base, path as string));
  // The README's folder, the README's resolution; a name of its own, since examples share `example.mjs`.
  const file = join(folder, `readme-example-${basename(block.file, '.md')}-${block.line}.mjs`);
  await writeFile(file, await withPorts(block.text, new Map()));
  try {
    const { code, output } = await sh(`node ${JSON.stringify(file)}`, base);
    expect(code, output).toBe(0);
    for (const text of promisedPrints(block.text)) expect(output).toContain(text);
  } finally {
    await rm(file, { force: true });
  }
}

describe('the READMEs', () => {
  beforeAll(async () => {
    // One build for every command below: the README's own `pnpm build`.
    const { code, output } = await sh('pnpm build', root);
    expect(code, output).toBe(0);
    project = await mkdtemp(join(tmpdir(), 'readme-project-'));
    const init = await sh('npm init -y', project);
    expect(init.code, init.output).toBe(0);
  }, 600_000);

  afterAll(async () => {
    if (sampleApi) await stopServer(sampleApi.process, 'pnpm sample-api');
    await killLeftovers(started);
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('are found, with blocks in them', () => {
    expect(blocks.filter((block) => block.file === 'README.md').length).toBeGreaterThan(5);
    expect(new Set(blocks.map((block) => block.file)).size).toBeGreaterThan(5);
  });

  for (const block of blocks) {
    const where = `${block.file}:${block.line} (${block.lang || 'no language'})`;
    it(`${where} runs as written, or says why not`, { timeout: 600_000 }, async () => {
      const markers = readMarkers(block);
      expect(markers.unknown, 'markers this test knows').toEqual([]);
      if (markers.notRun) return;
      if (markers.excerptOf) {
        const file = await readFile(join(root, markers.excerptOf), 'utf8');
        expect(missingExcerptLines(block.text, file)).toEqual([]);
        return;
      }
      if (markers.outputOf) {
        const output = printed.get(markers.outputOf);
        expect(output, `"${markers.outputOf}" ran in a block above`).toBeDefined();
        expect(missingSampleLines(block.text, output as string)).toEqual([]);
        return;
      }
      if (SHELL.has(block.lang)) return runShellBlock(block);
      if (block.lang === 'json') {
        expect(() => JSON.parse(block.text)).not.toThrow();
        return;
      }
      if (RUNNABLE.has(block.lang)) {
        const runBy = blocks.find(
          (other) => SHELL.has(other.lang) && examplesRunBy(other).some((e) => e.example === block),
        );
        if (!runBy) return runExample(block);
        const output = ranBy.get(block);
        expect(output, `${runBy.file}:${runBy.line} ran it`).toBeDefined();
        for (const text of promisedPrints(block.text)) expect(output).toContain(text);
        return;
      }
      expect.fail(
        `${where}: neither runnable here nor marked; mark it <!-- output of "COMMAND" -->, <!-- excerpt of PATH --> or <!-- not run: REASON -->`,
      );
    });
  }
});

describe('the client README', () => {
  it('shows every option of the client in an example', async () => {
    const readme = await readFile(join(root, 'packages', 'client', 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Options');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const options = [
      'baseUrl',
      'userId',
      'secret',
      'apiVersion',
      'versionHeader',
      'timeoutMs',
      'retry',
      'dispatcher',
      'validateRequests',
      'headers',
      'followRedirects',
    ];
    expect(options.filter((option) => !section.includes(`${option}:`))).toEqual([]);
  });
});
