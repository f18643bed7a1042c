import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readContracts, writeContracts } from '../support/contracts-output.js';

const root = mkdtempSync(join(tmpdir(), 'contracts-output-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('writeContracts', () => {
  it('leaves exactly the generated files, removing pact files nobody generates any more', () => {
    const dir = mkdtempSync(join(root, 'contracts-'));
    writeFileSync(join(dir, 'print-order-client-print-order-api-v0.json'), '{}');
    writeFileSync(join(dir, 'NOTES.txt'), 'kept');
    writeContracts(
      new Map([
        ['print-order-client-print-order-api-v2.json', '{"v":2}\n'],
        ['README.md', '# Contracts\n'],
      ]),
      dir,
    );
    expect(readdirSync(dir).sort()).toEqual([
      'NOTES.txt',
      'README.md',
      'print-order-client-print-order-api-v2.json',
    ]);
    expect(readContracts(dir)).toEqual(
      new Map([
        ['README.md', '# Contracts\n'],
        ['print-order-client-print-order-api-v2.json', '{"v":2}\n'],
      ]),
    );
  });

  it('reads no contracts from a directory that does not exist', () => {
    const missing = join(root, 'missing');
    expect(existsSync(missing)).toBe(false);
    expect(readContracts(missing)).toEqual(new Map());
  });
});
