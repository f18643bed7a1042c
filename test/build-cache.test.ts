import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;

/** Each build task's cache key, as turbo computes it in `env`, without building anything. */
async function buildHashes(env: Record<string, string>): Promise<Record<string, string>> {
  const { stdout } = await run('pnpm', ['exec', 'turbo', 'run', 'build', '--dry=json'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TURBO_TELEMETRY_DISABLED: '1',
      ...env,
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  const { tasks } = JSON.parse(stdout) as { tasks: { taskId: string; hash: string }[] };
  return Object.fromEntries(tasks.map((task) => [task.taskId, task.hash]));
}

describe('the build cache', () => {
  // Tests run `pnpm build` and `pnpm verify` (the README's commands) while other suites run the
  // built dist/. Under a CI=true runner, a key that hashed CI missed the cache there, and tsc
  // rewrote dist/ in place under the running suites: a CLI read a half-written module and
  // exited 1 (3 bad-input tests in one CI run). The build's outputs do not depend on these.
  it('gives every build task the same key whatever the CI and proxy variables say', async () => {
    const plain = await buildHashes({});
    expect(Object.keys(plain)).toContain('@print-contracts/verifier#build');
    const busy = await buildHashes({
      CI: 'true',
      NODE_EXTRA_CA_CERTS: '/nowhere/ca.pem',
      HTTPS_PROXY: 'http://127.0.0.1:9',
    });
    expect(busy).toEqual(plain);
  });
});
