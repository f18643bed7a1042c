import { EXIT_CODES } from '../exit-codes.js';
import type { RunReport } from './model.js';

/**
 * Why a run exits 1 though no interaction failed: `--strict` counting the not verifiable ones,
 * or `--fail-on-drift`. Undefined when a contract broke (the failures say it) or the run passed.
 */
export function failedWithoutBreak(report: RunReport): string | undefined {
  const { totals } = report;
  if (report.exitCode !== EXIT_CODES.failed || totals.failed > 0) return undefined;
  if (report.strict && totals.notVerifiable > 0) {
    const many =
      totals.notVerifiable === 1 ? '1 interaction was' : `${totals.notVerifiable} interactions were`;
    return `Exit 1: no contract broke, but ${many} not verifiable here and --strict counts them as failures.`;
  }
  if ((report.drift?.findings.length ?? 0) > 0) {
    return 'Exit 1: no contract broke, but answers drifted from the OpenAPI description and --fail-on-drift counts that.';
  }
  return undefined;
}
