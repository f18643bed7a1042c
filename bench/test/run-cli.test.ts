import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUN = fileURLToPath(new URL('../dist/run.js', import.meta.url));

/** `pnpm bench ARGS` as its script runs it (`node bench/dist/run.js`): the exit status and what it printed. */
const bench = (args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [RUN, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });

describe('pnpm bench', () => {
  it.each([
    [['--mutation'], "Unknown option '--mutation'; did you mean --mutations?"],
    [['mutations'], "Unexpected argument 'mutations'"],
  ])(
    'refuses %j with one line naming the fix and exit 2, before measuring anything',
    async (args, problem) => {
      const { code, stdout, stderr } = await bench(args);

      expect(stderr).toMatch(
        new RegExp(`^bench: ${problem.replace(/[?.]/g, '\\$&')}.*\\(see pnpm bench --help\\)\\n$`),
      );
      expect(code).toBe(2);
      expect(stdout).toBe('');
    },
  );

  it('prints its usage with --help and exits 0, measuring nothing', async () => {
    const { code, stdout, stderr } = await bench(['--help']);

    expect(stdout).toMatch(/^Usage: pnpm bench \[--mutations\]\n/);
    expect(stdout).toContain('--mutations');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
