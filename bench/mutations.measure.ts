/**
 * The whole mutation harness, run by `pnpm bench --mutations` through vitest (the stand-in's
 * altering proxy comes from @print-contracts/test-support, which ships TypeScript only). Writes
 * bench/mutations.json and the harness's section of bench/RESULTS.md. It measures; it does not
 * fail on a missed mutation (the figures say so). Then a run killed mid-arranging, and its
 * `--cleanup`, against each vendor behaviour a cleanup meets (`killed-run.ts`), and the same runs
 * stopped by SIGTERM, whose own teardown must settle what they made or keep it in their ledger.
 * Every mutation runs twice: with the stand-in's control surface declared, and in the nightly
 * configuration without it.
 * MUTATION_CONCURRENCY: 1 or 2 (default 2).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { generateMutations } from './src/mutations/generate.js';
import { EXTRA_ORDERS, readPacts, runMutations, withUnobservable } from './src/mutations/harness.js';
import { killedRunMutations, runKilledRuns } from './src/mutations/killed-run.js';
import { type MutationSummary, renderSection, withSection } from './src/mutations/summary.js';

const BENCH = fileURLToPath(new URL('./', import.meta.url));
const PACTS = fileURLToPath(new URL('../contracts', import.meta.url));

it('the mutation harness verifies every generated mutation against its own stand-in', {
  timeout: 3_600_000,
}, async () => {
  const generated = generateMutations(await readPacts(PACTS));
  const concurrency = Number(process.env.MUTATION_CONCURRENCY ?? 2);
  const work = await mkdtemp(join(tmpdir(), 'bench-mutations-'));
  const started = process.hrtime.bigint();
  const total = generated.mutations.length;
  try {
    const { results, baseline } = await runMutations(generated.mutations, {
      work,
      pacts: PACTS,
      concurrency,
      onResult: (result, done) =>
        process.stderr.write(
          `[mutations ${done}/${total}] ${result.outcome.padEnd(11)} exit ${result.exitCode} ${result.name}\n`,
        ),
    });
    // Then every mutation again in the nightly configuration: a sample-data set, no control surface.
    const withoutControl = await runMutations(generated.mutations, {
      work,
      pacts: PACTS,
      concurrency,
      control: false,
      onResult: (result, done) =>
        process.stderr.write(
          `[nightly ${done}/${total}] ${result.outcome.padEnd(11)} exit ${result.exitCode} ${result.name}\n`,
        ),
    });
    const scopes = Object.fromEntries(
      generated.mutations.map((mutation) => [mutation.name, mutation.scope.version]),
    );
    const nightly = withUnobservable(withoutControl.results, results, withoutControl.unaltered, scopes);
    // Then each vendor behaviour a cleanup meets, against a run killed mid-arranging.
    const killable = killedRunMutations(generated.mutations);
    const killedRuns = await runKilledRuns(killable, {
      work,
      pacts: PACTS,
      concurrency,
      onResult: (result, done) =>
        process.stderr.write(
          `[killed runs ${done}/${killable.length}] ${result.outcome.padEnd(7)} cleanup exit ${result.exitCode} ${result.name}\n`,
        ),
    });
    // And the same runs stopped by SIGTERM: their own teardown, then --cleanup when they kept a ledger.
    const stoppedRuns = await runKilledRuns(killable, {
      work,
      pacts: PACTS,
      concurrency,
      signal: 'SIGTERM',
      onResult: (result, done) =>
        process.stderr.write(
          `[SIGTERM runs ${done}/${killable.length}] ${result.teardown?.outcome ?? 'ended first'} exit ${result.teardown?.exitCode} ${result.name}\n`,
        ),
    });
    const byKind: Record<string, number> = {};
    for (const mutation of generated.mutations) byKind[mutation.kind] = (byKind[mutation.kind] ?? 0) + 1;
    const summary: MutationSummary = {
      date: new Date().toISOString(),
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      concurrency,
      baseline,
      extraOrders: EXTRA_ORDERS,
      fields: generated.fields.length,
      skipped: generated.skipped.length,
      byKind,
      results,
      killedRuns,
      stoppedRuns,
      nightly,
    };
    await writeFile(join(BENCH, 'mutations.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const markdown = await readFile(join(BENCH, 'RESULTS.md'), 'utf8').catch(() => '# Benchmark results\n');
    await writeFile(join(BENCH, 'RESULTS.md'), withSection(markdown, renderSection(summary)));
    expect(results).toHaveLength(total);
    expect(nightly).toHaveLength(total);
    expect(killedRuns).toHaveLength(killable.length);
    expect(stoppedRuns).toHaveLength(killable.length);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
