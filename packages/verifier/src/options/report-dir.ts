import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors/usage-error.js';

/**
 * Makes sure the reports and the ledger can be written, before anything is sent to the
 * target: a run that creates orders and then cannot write its ledger would lose track of
 * them. Creates the folders, and writes and removes a probe file in each.
 */
export function checkWritable(reportDir: string, ledgerPath: string): void {
  for (const [flag, dir] of [
    ['--report-dir', reportDir],
    ['--ledger', dirname(ledgerPath)],
  ] as const) {
    try {
      mkdirSync(dir, { recursive: true });
      const probe = join(dir, `.verify-write-check-${process.pid}`);
      writeFileSync(probe, '');
      rmSync(probe, { force: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new UsageError(`${flag}: cannot write into ${dir} (${code}); give a folder you can write`);
    }
  }
}
