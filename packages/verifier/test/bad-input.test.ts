import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { captureIo, cliEnv, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../src/index.js';
import { runCli } from './helpers/cli.js';
import { fixtureInteractions, fixturePact } from './helpers/fixture-pact.js';

const SECRET = 'do-not-print-this-secret-7f3a';

interface Case {
  readonly given: string;
  readonly args: (path: (...parts: string[]) => string) => string[];
  readonly env?: Record<string, string>;
  /** What the one line on stderr must say. */
  readonly want: RegExp;
}

const target = ['--base-url', 'http://127.0.0.1:9/api', '--mode', 'sample'];
const credentials = { PRINT_API_USER_ID: 'someone', PRINT_API_SECRET: SECRET };

const CASES: readonly Case[] = [
  {
    given: 'an unknown flag',
    args: () => ['--bogus'],
    want: /Unknown option '--bogus' \(see pnpm verify --help\)/,
  },
  {
    given: '--mode given twice, so that the last would win unsaid',
    args: () => ['--base-url', 'https://127.0.0.1:9/api', '--mode', 'sample', '--mode', 'live'],
    want: /^verify: Option '--mode' is given more than once; give it once \(see pnpm verify --help\)\n$/,
  },
  {
    given: 'an --only of spaces, which every description would contain',
    args: () => ['--only', '  '],
    want: /^verify: Option '--only' has an empty value; give one \(see pnpm verify --help\)\n$/,
  },
  {
    given: 'an empty --report-dir, which would write the reports into the current folder',
    args: () => ['--report-dir='],
    want: /^verify: Option '--report-dir' has an empty value; give one \(see pnpm verify --help\)\n$/,
  },
  {
    given: 'a mistyped flag',
    args: () => ['--stirct'],
    want: /Unknown option '--stirct'; did you mean --strict\? \(see pnpm verify --help\)/,
  },
  {
    given: 'an --only that matches no interaction',
    args: (path) => ['--pact', path('good.json'), '--only', 'zebra'],
    want: /--only "zebra" matches no interaction's description/,
  },
  {
    given: '--cleanup with flags of a run, which it would ignore',
    args: () => ['--cleanup', '--base-url', 'https://127.0.0.1:9/api', '--mode', 'live'],
    want: /^verify: --base-url, --mode do not apply to --cleanup, which finishes the orders the ledger holds on the targets it names \(see pnpm verify --help\)\n$/,
  },
  {
    given: '--cleanup with a --retries past its bound',
    args: () => ['--cleanup', '--retries', '99'],
    want: /--retries/,
  },
  {
    given: '--quiet with --verbose',
    args: () => ['--quiet', '--verbose'],
    want: /--quiet and --verbose exclude each other/,
  },
  {
    given: 'a literal -- then an unknown flag',
    args: () => ['--', '--bogus'],
    want: /Unknown option '--bogus'/,
  },
  {
    given: '--mode without --base-url',
    args: () => ['--mode', 'live'],
    want: /--mode applies to a --base-url target/,
  },
  {
    given: '--base-url without --mode',
    args: () => ['--base-url', 'https://api.example.com/api'],
    want: /--mode sample\|live is required/,
  },
  {
    given: 'a bad --mode',
    args: () => ['--base-url', 'https://api.example.com/api', '--mode', 'prod'],
    want: /--mode must be sample or live, got "prod"/,
  },
  {
    given: 'a base URL without /api',
    args: () => ['--base-url', 'https://api.example.com/v2', '--mode', 'sample'],
    want: /--base-url must end in \/api/,
  },
  {
    given: 'an http:// base URL in live mode',
    args: () => ['--base-url', 'http://api.example.com/api', '--mode', 'live'],
    want: /--mode live needs an https:\/\/ base URL/,
  },
  { given: 'a secret as an argument', args: () => [`--secret=${SECRET}`], want: /--secret is not accepted/ },
  {
    given: 'a URL target without a user id',
    args: () => target,
    want: /no user id for the target: set PRINT_API_USER_ID/,
  },
  {
    given: 'a URL target without a secret',
    args: () => target,
    env: { PRINT_API_USER_ID: 'someone' },
    want: /no secret for the target: set PRINT_API_SECRET/,
  },
  {
    given: 'half a second credential set',
    args: () => target,
    env: { ...credentials, PRINT_API_OTHER_USER_ID: 'other' },
    want: /set PRINT_API_OTHER_SECRET/,
  },
  {
    given: 'an unknown API version',
    args: () => ['--api-version', 'v3'],
    want: /--api-version must be v1 or v2, got "v3"/,
  },
  {
    given: 'a bad timeout',
    args: () => ['--request-timeout', 'soon'],
    want: /--request-timeout must be a whole number of milliseconds/,
  },
  {
    given: 'a timeout past its bound, which the message names',
    args: () => ['--creation-timeout', '86400001'],
    want: /--creation-timeout must be a whole number of milliseconds from 1 to 86400000 \(a day\), got "86400001"/,
  },
  { given: '--publish without a broker', args: () => ['--publish'], want: /--publish needs a Pact Broker/ },
  {
    given: 'a missing pact file',
    args: (path) => ['--pact', path('nowhere.json')],
    want: /nowhere\.json: no such file or folder/,
  },
  {
    given: 'an empty pact folder',
    args: (path) => ['--pact', path('empty')],
    want: /empty: holds no pact files/,
  },
  {
    given: 'a pact that is not JSON',
    args: (path) => ['--pact', path('bad', 'not-json.json')],
    want: /not-json\.json: is not valid JSON/,
  },
  {
    given: 'a pact without interactions',
    args: (path) => ['--pact', path('bad', 'no-interactions.json')],
    want: /no-interactions\.json: is not a pact: interactions/,
  },
  {
    given: 'a pact for another provider',
    args: (path) => ['--pact', path('bad', 'other-provider.json')],
    want: /is for provider "someone-else"; the kit verifies print-order-api-v1 or print-order-api-v2/,
  },
  {
    given: 'a pact that names no Pact specification (Pact would read its V4 bodies as V3)',
    args: (path) => ['--pact', path('bad', 'no-metadata.json')],
    want: /no-metadata\.json: names no Pact specification \(metadata\.pactSpecification\.version\); the kit replays V4 pacts/,
  },
  {
    given: 'a pact labelled with another Pact specification',
    args: (path) => ['--pact', path('bad', 'v2-label.json')],
    want: /v2-label\.json: is a Pact specification 2\.0\.0 pact; the kit replays V4 pacts/,
  },
  {
    given: 'a pact with no interactions',
    args: (path) => ['--pact', path('bad', 'empty-interactions.json')],
    want: /empty-interactions\.json: holds no interactions: nothing to verify/,
  },
  {
    given: 'a request path without a slash',
    args: (path) => ['--pact', path('bad', 'bad-path.json')],
    want: /interactions\[0\]\.request\.path must start with \//,
  },
  {
    given: 'an unknown provider state',
    args: (path) => ['--pact', path('bad', 'unknown-state.json')],
    want: /unknown provider state "the moon is full" \(interaction "a request for the first page of orders"\)/,
  },
  {
    given: 'a second secret pasted with a zero-width space, which no header can carry',
    args: () => target,
    env: { ...credentials, PRINT_API_OTHER_USER_ID: 'other', PRINT_API_OTHER_SECRET: 'other-\u200bsecret' },
    want: /PRINT_API_OTHER_SECRET holds a character no HTTP header can carry \(U\+200B/,
  },
  {
    given: 'a secret with a control character',
    args: () => target,
    env: { ...credentials, PRINT_API_SECRET: `${SECRET}\u007f` },
    want: /PRINT_API_SECRET holds a character no HTTP header can carry \(U\+007F/,
  },
  {
    given: 'a --pact that is a named pipe, which would block the run for good',
    args: (path) => ['--pact', path('not-ledgers', 'pipe')],
    want: /not-ledgers\/pipe: is not a file or a folder/,
  },
  {
    given: '--publish with --only, which would file a few interactions as the whole pact',
    args: () => ['--publish', '--provider-version', '1', '--only', 'first page'],
    env: { PACT_BROKER_BASE_URL: 'https://broker.example' },
    want: /--publish does not go with --only/,
  },
  {
    given: 'broker flags with --pact files, which they would not apply to',
    args: (path) => ['--pact', path('good.json'), '--consumer-version-selector', '{"branch":"main"}'],
    want: /--consumer-version-selector applies to pacts from a Pact Broker, not to --pact files/,
  },
  {
    given: 'a --ledger that is not a ledger',
    args: (path) => ['--pact', path('good.json'), '--ledger', path('good.json')],
    want: /--ledger .*good\.json is not a ledger of pnpm verify \(line 1\)/,
  },
  {
    given: 'a --ledger where a report goes',
    args: (path) => [
      '--pact',
      path('good.json'),
      '--report-dir',
      path('out'),
      '--ledger',
      path('out', 'verify-report.json'),
    ],
    want: /--ledger .*verify-report\.json is a report this run writes/,
  },
];

// The built command is a thin shell over runVerify (its exit status is runVerify's): run as a
// process here, with its version and one bad flag; the bad input below runs in-process.
describe('the built verify command', () => {
  it('prints the kit version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const { code, stdout, stderr } = await runCli(['--version'], { cwd: process.cwd() });
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: `@print-contracts/verifier ${version}\n`,
      stderr: '',
    });
  });

  it('exits 2 with one line of reason, and nothing else, for an unknown flag', async () => {
    const { code, stdout, stderr } = await runCli(['--bogus'], { cwd: process.cwd() });
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: "verify: Unknown option '--bogus' (see pnpm verify --help)\n",
    });
  });
});

describe.concurrent('the verify command with bad flags or bad pacts', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    space = await workspace();
    await mkdir(space.path('bad'));
    await mkdir(space.path('empty'));
    const [first] = fixtureInteractions('v1');
    const bad = (name: string, content: unknown) =>
      writeFile(space.path('bad', name), typeof content === 'string' ? content : JSON.stringify(content));
    await writeFile(space.path('good.json'), JSON.stringify(fixturePact('v1')));
    await mkdir(space.path('not-ledgers'));
    await writeFile(space.path('not-ledgers', 'note.txt'), 'my release notes, one line, no newline');
    await writeFile(space.path('not-ledgers', 'blob.bin'), Buffer.from([0xff, 0xfe, 0x80, 0x20, 0x62]));
    execFileSync('mkfifo', [space.path('not-ledgers', 'pipe')]);
    await symlink(space.path('not-ledgers', 'nowhere'), space.path('not-ledgers', 'dangling'));
    await Promise.all([
      bad('not-json.json', '{ "consumer": '),
      bad('no-interactions.json', { consumer: { name: 'c' }, provider: { name: 'print-order-api-v1' } }),
      bad('other-provider.json', { ...fixturePact('v1'), provider: { name: 'someone-else' } }),
      bad('no-metadata.json', { ...fixturePact('v1'), metadata: undefined }),
      bad('v2-label.json', { ...fixturePact('v1'), metadata: { pactSpecification: { version: '2.0.0' } } }),
      bad('empty-interactions.json', fixturePact('v1', [])),
      bad(
        'bad-path.json',
        fixturePact('v1', [{ ...first, request: { ...(first?.request as object), path: 'orders' } }]),
      ),
      bad(
        'unknown-state.json',
        fixturePact('v1', [{ ...first, providerStates: [{ name: 'the moon is full' }] }]),
      ),
    ]);
  });
  afterAll(() => space.remove());

  it.each([
    ['a one-line note with no newline', 'note.txt', /is not a ledger of pnpm verify \(line 1\)/],
    ['a binary file', 'blob.bin', /is not a ledger of pnpm verify \(line 1\)/],
    ['a named pipe, which would block the run', 'pipe', /is not a regular file/],
    ['a link to a file that does not exist', 'dangling', /is not a regular file/],
  ])('refuses as --ledger %s with exit 2, and leaves it as it was', async (_given, name, want) => {
    // Found by a bad-input audit: a one-line file, or /dev/null, passed as an empty ledger, and the
    // run appended its events to it and removed it once settled.
    const path = space.path('not-ledgers', name);
    const before = lstatSync(path);
    const output = captureIo({ cwd: space.dir, env: cliEnv() });
    const code = await runVerify(['--pact', space.path('good.json'), '--ledger', path], output.io);
    expect(code).toBe(2);
    expect(output.stderr()).toMatch(want);
    const after = lstatSync(path);
    expect([after.mode, after.size, after.mtimeMs]).toEqual([before.mode, before.size, before.mtimeMs]);
  });

  for (const { given, args, env, want } of CASES) {
    it(`exits 2 with one line of reason for ${given}`, async () => {
      const output = captureIo({ cwd: space.dir, env: cliEnv(env) });
      const code = await runVerify(args(space.path), output.io);
      const [stdout, stderr] = [output.stdout(), output.stderr()];
      // The message shows what the command printed when it exits otherwise.
      expect(code, `${stderr}${stdout}`).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/^verify: /);
      expect(stderr).toMatch(want);
      expect(stderr).not.toContain(SECRET);
    });
  }
});
