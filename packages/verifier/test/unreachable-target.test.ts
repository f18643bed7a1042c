import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { captureIo } from './helpers/io.js';
import { verifyArgs } from './helpers/targets.js';
import { workspace } from './helpers/workspace.js';

/** A loopback port nobody listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the verifier with an unreachable target', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
  });
  afterAll(() => space.remove());

  it('exits 2 with one line saying it cannot reach the target, before arranging anything', async () => {
    const port = await closedPort();
    const output = captureIo({
      cwd: space.dir,
      env: { PRINT_API_USER_ID: 'someone', PRINT_API_SECRET: 'something' },
    });
    const code = await runVerify(
      verifyArgs({
        baseUrl: `http://127.0.0.1:${port}/api`,
        mode: 'sample',
        pact: space.path('pacts'),
        reports: space.path('reports'),
      }),
      output.io,
    );
    expect(code).toBe(2);
    expect(output.stderr()).toBe(
      `verify: cannot reach the target at http://127.0.0.1:${port}: the target refused the connection\n`,
    );
    expect(output.stdout()).not.toContain('state ');
  });
});
