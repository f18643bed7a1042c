import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ENV } from '@print-contracts/client';
import { redact, usageLine } from '@print-contracts/client/kit';
import { arrange } from './arrange/arrange.js';
import { fetchBrokerPacts } from './broker/broker-pacts.js';
import { runCleanup } from './cleanup/cleanup.js';
import { compareDriftWithBaseline, compareRun } from './compare/compare.js';
import { observeDrift } from './drift/observe-drift.js';
import { loadOpenApiDocuments } from './drift/openapi-documents.js';
import { isUsageError, isVerifierError, PactFileError, UsageError } from './errors/index.js';
import { EXIT_CODES, type ExitCode, SIGNAL_EXIT_CODES, stopSignalOf } from './exit-codes.js';
import { Ledger } from './ledger/ledger.js';
import { OTHER_SECRET_ENV } from './options/credentials.js';
import { brokerSecrets, parseVerifyArgs } from './options/parse-args.js';
import { VERIFY_USAGE } from './options/usage.js';
import type { VerifyOptions } from './options/verify-options.js';
import type { LoadedPact } from './pacts/interaction.js';
import { loadPactFiles } from './pacts/load-pacts.js';
import { planRun } from './plan/plan.js';
import { toHar, writeHar } from './record/har.js';
import { PactRunner } from './replay/pact-runner.js';
import { type Replayed, replay } from './replay/replay.js';
import { buildReport, withComparison } from './report/build-report.js';
import { ConsoleReporter, type TextSink, wantsColour } from './report/console-reporter.js';
import { KIT_NAME, KIT_VERSION } from './report/kit-version.js';
import { teardownText } from './report/model.js';
import { REPORT_FILES, writeReports } from './report/write-reports.js';
import { settle } from './settle/settle.js';
import { TargetClients } from './target/clients.js';
import { preflight } from './target/preflight.js';

import { startTarget, targetSecrets } from './target/target.js';
import { retryTally, runRetryPolicy, type Transport } from './target/transport.js';

/** What a run talks to: the console, the environment, the working directory, and the stop signal. */
export interface VerifyIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * Aborted with the signal's name (`SIGINT`, `SIGTERM`, `SIGHUP`, or `parent exited`) on the first
   * signal: the run stops, tears down and ends with 130 (SIGINT) or 143, saying so on stderr. Once
   * the teardown is over, the run writes its reports and keeps its own status.
   */
  readonly signal?: AbortSignal;
}

/** What a stop does, by when it comes: the line said on stderr after the signal's name. */
const STOPPING = {
  run: 'stopping; tearing down the orders this run created',
  reports: 'the run has finished and torn down: writing its reports, with its own status',
  cleanup: 'stopping; what is still open stays in the ledger for the next `pnpm verify --cleanup`',
} as const;
/** Where a run is when a signal comes, and the ledger of a run against a URL, where what is open stays on a quit. */
type Stopping = { phase: keyof typeof STOPPING; ledger?: string };

/** After a signal, how long teardown may wait for orders still being created, at most. */
const STOPPED_SETTLE_MS = 15_000;

/**
 * `pnpm verify` as a function: options → plan → arrange → replay → settle → report, or
 * `--cleanup`. A problem before anything was created is one line on stderr and exit 2; nothing
 * it prints holds a secret.
 */
export async function runVerify(argv: readonly string[], io: VerifyIo): Promise<ExitCode> {
  const secrets = [io.env[ENV.secret], io.env[OTHER_SECRET_ENV], ...brokerSecrets(io.env)].filter(
    (value): value is string => Boolean(value),
  );
  const stopping: Stopping = { phase: 'run' };
  const notice = () => {
    const { ledger } = stopping;
    // Said before a second signal can come: a quit leaves the teardown to `--cleanup`.
    const left =
      ledger && existsSync(ledger)
        ? `, leaving what is still open in ${ledger} for \`pnpm verify --cleanup --ledger ${ledger}\``
        : '';
    io.stderr.write(
      `\n${String(io.signal?.reason)}: ${STOPPING[stopping.phase]} (again to quit now${left})…\n`,
    );
  };
  if (io.signal?.aborted) notice();
  else io.signal?.addEventListener('abort', notice, { once: true });
  try {
    const command = parseVerifyArgs(argv, io.env, io.cwd);
    if (command.kind === 'help') {
      io.stdout.write(`${VERIFY_USAGE}\n`);
      return EXIT_CODES.passed;
    }
    if (command.kind === 'version') {
      io.stdout.write(`${KIT_NAME} ${KIT_VERSION}\n`);
      return EXIT_CODES.passed;
    }
    if (command.kind === 'verify') return await verify(command.options, io, secrets, stopping);
    stopping.phase = 'cleanup';
    const reporter = new ConsoleReporter(io.stdout, { detail: 'verbose', secrets });
    const code = await runCleanup(command, {
      say: (line) => reporter.say(line),
      env: io.env,
      cwd: io.cwd,
      signal: io.signal ?? new AbortController().signal,
      secrets,
    });
    // A stopped cleanup ends as a stopped run does: the signal's status wins.
    return io.signal?.aborted ? SIGNAL_EXIT_CODES[stopSignalOf(io.signal.reason)] : code;
  } catch (error) {
    // Stopped before anything was created: the signal's status, and its line the only one said.
    if (io.signal?.aborted) return SIGNAL_EXIT_CODES[stopSignalOf(io.signal.reason)];
    const message = error instanceof Error ? error.message : String(error);
    // Not one of the verifier's own errors: a bug. One line, no stack trace, no secret.
    const text = isVerifierError(error) ? message : `unexpected error: ${message}`;
    const line = redact(text, secrets);
    io.stderr.write(isUsageError(error) ? usageLine('verify', line) : `verify: ${line}\n`);
    return EXIT_CODES.notStarted;
  } finally {
    io.signal?.removeEventListener('abort', notice);
  }
}

/** Runs one verification; throws `VerifierError`s only before anything was created (exit 2). */
async function verify(
  options: VerifyOptions,
  io: VerifyIo,
  secrets: string[],
  stopping: Stopping,
): Promise<ExitCode> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const colour = wantsColour(io.stdout, io.env);
  const reporter = new ConsoleReporter(io.stdout, { detail: options.detail, secrets, colour });
  const progress = (line: string) => reporter.progress(line);
  const detail = (line: string) => reporter.detail(line);
  const stoppedBy = () => (io.signal?.aborted ? stopSignalOf(io.signal.reason) : undefined);
  const scratch = await mkdtemp(join(tmpdir(), 'contract-verify-'));
  let started: Awaited<ReturnType<typeof startTarget>> | undefined;
  let clients: TargetClients | undefined;
  let runner: PactRunner | undefined;
  try {
    // Read first: a file that is not a ledger, or one a report would overwrite, stops the run before anything starts.
    if (Object.values(REPORT_FILES).some((name) => join(options.reportDir, name) === options.ledgerPath)) {
      throw new UsageError(
        `--ledger ${options.ledgerPath} is a report this run writes; give the ledger a path of its own, such as the default <report-dir>/verify-ledger.jsonl`,
      );
    }
    const ledger = Ledger.open(options.ledgerPath, randomBytes(4).toString('hex'), options.creationTimeoutMs);
    if (options.target.kind === 'url') stopping.ledger = options.ledgerPath;
    const documents = options.openapiDir ? loadOpenApiDocuments(options.openapiDir) : [];
    started = await startTarget(options.target);
    const { target } = started;
    secrets.push(...targetSecrets(target));
    // One retry policy for every request the run sends; its tally is reported, never a verdict.
    const tally = retryTally(progress);
    const transport = { retry: runRetryPolicy(options), onRetry: tally.observe };
    clients = new TargetClients(target, options.requestTimeoutMs, transport);
    const [pacts] = await Promise.all([
      loadPacts(options, clients, { transport, signal: io.signal }, io.cwd),
      preflight(clients.dispatcher, target, options.requestTimeoutMs, transport, io.signal),
    ]);
    const plan = planRun(pacts, {
      mode: target.mode,
      control: target.controlOrigin !== undefined,
      otherCredentials: target.credentials.other !== undefined,
      only: options.only,
    });
    // The one owner of Pact's verifier process: started here, as arranging begins, stopped below.
    runner = new PactRunner();
    reporter.announce(target, plan, options);
    const leftovers = ledger.open().filter((entry) => !entry.embedded).length;
    if (leftovers > 0) {
      reporter.say(
        `The ledger ${options.ledgerPath} holds ${leftovers} orders an earlier run left; \`pnpm verify --cleanup\` settles them.`,
      );
    }
    const work = new AbortController();
    setMaxListeners(0, work.signal);
    const stop = () => {
      work.abort();
      runner?.stop();
    };
    if (io.signal?.aborted) stop();
    io.signal?.addEventListener('abort', stop, { once: true });
    let replayed: Replayed | undefined;
    let broke: { error: unknown } | undefined;
    /** The verifier's own faults while arranging or replaying: once torn down, the run ends broken. */
    const faults: unknown[] = [];
    const fault = (error: unknown) => faults.push(error);
    try {
      const arrangement = await arrange(plan, {
        ...options,
        clients,
        ledger,
        signal: work.signal,
        progress,
        detail,
        broke: fault,
      });
      replayed = await replay(arrangement, {
        runner,
        target,
        dispatcher: clients.dispatcher,
        ledger,
        secrets,
        timeoutMs: options.requestTimeoutMs,
        ...transport,
        scratch,
        trustNothing: options.broker ? undefined : PactRunner.trustNothingCaStore(scratch),
        broker: options.broker,
        appVersion: KIT_VERSION,
        interrupted: () => stoppedBy() !== undefined,
        broke: fault,
        signal: work.signal,
        progress: detail,
        finished: (items) => {
          for (const item of items) {
            const { version, interaction } = item.arranged.planned;
            reporter.verdict({ ...item, version, description: interaction.description });
          }
        },
      });
    } catch (error) {
      // A bug mid-run: what the run created is still torn down before it is reported.
      broke = { error };
    } finally {
      if (!broke && faults.length > 0) broke = { error: faults[0] };
      io.signal?.removeEventListener('abort', stop);
      runner.stop();
    }
    const mine = ledger.open().filter((entry) => entry.run === ledger.run).length;
    if (mine > 0) detail(`Teardown: settling ${mine} orders the run created`);
    const budget = settleBudget(io.signal);
    const settlement = await settle({
      ledger,
      clientsFor: () => clients,
      pollIntervalMs: options.pollIntervalMs,
      secrets,
      signal: budget.signal,
      say: progress,
    }).finally(budget.dispose);
    // Stopped or not is decided here: a signal from now on lets the reports be written as they stand.
    const stoppedAt = stoppedBy();
    stopping.phase = 'reports';
    if (broke || !replayed) {
      reporter.say(teardownText(settlement));
      throw broke?.error;
    }
    const { exchanges } = clients.recorder;
    const observed = observeDrift(exchanges, documents, {
      basePath: new URL(target.baseUrl).pathname,
      secrets,
      dir: options.openapiDir && relative(io.cwd, options.openapiDir),
    });
    const earlier = options.comparison.baseline?.drift;
    const drift = earlier
      ? { ...observed, ...compareDriftWithBaseline(observed.findings, earlier, observed.answered) }
      : observed;
    const built = buildReport(replayed, settlement, {
      target,
      strict: options.strict,
      stoppedBy: stoppedAt,
      startedAt,
      durationMs: performance.now() - t0,
      secrets,
      drift,
      failOnDrift: options.failOnDrift,
      retries: tally.summary(),
    });
    const comparison = compareRun(built.interactions, options.comparison, {
      strict: options.strict,
      today: new Date().toISOString().slice(0, 10),
      versions: options.apiVersions,
    });
    const report = withComparison(built, comparison);
    reporter.results(report);
    const written = await writeReports(report, options.reportDir, secrets, replayed.pactOutput);
    const userIds = [target.credentials.main.userId, target.credentials.other?.userId ?? ''].filter(Boolean);
    const creator = { name: '@print-contracts/verifier', version: KIT_VERSION };
    const harPath = join(options.reportDir, REPORT_FILES.har);
    const har = await writeHar(harPath, toHar(exchanges, { creator, secrets, userIds }), secrets);
    reporter.closing(report, [...written, har]);
    return report.exitCode;
  } finally {
    runner?.stop();
    await clients?.close();
    await started?.sampleApi?.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

async function loadPacts(
  options: VerifyOptions,
  clients: TargetClients,
  sending: { transport: Transport; signal: AbortSignal | undefined },
  cwd: string,
): Promise<LoadedPact[]> {
  const { broker, apiVersions, requestTimeoutMs } = options;
  const request = { timeoutMs: requestTimeoutMs, transport: sending.transport, signal: sending.signal };
  const pacts = broker
    ? await fetchBrokerPacts(clients.dispatcher, broker, apiVersions, request)
    : await loadPactFiles(options.pactPaths, cwd);
  const chosen = pacts.filter((pact) => apiVersions.includes(pact.version));
  if (chosen.length > 0) return chosen;
  throw new PactFileError(
    options.pactPaths.join(', ') || 'the Pact Broker',
    `holds no pact for ${apiVersions.join(' or ')}`,
  );
}

/** Ends teardown's waits `STOPPED_SETTLE_MS` after a stop (before teardown or during it). */
function settleBudget(stopped: AbortSignal | undefined): { signal: AbortSignal; dispose: () => void } {
  const budget = new AbortController();
  setMaxListeners(0, budget.signal);
  let timer: NodeJS.Timeout | undefined;
  const start = () => {
    timer ??= setTimeout(() => budget.abort(), STOPPED_SETTLE_MS);
  };
  if (stopped?.aborted) start();
  else stopped?.addEventListener('abort', start, { once: true });
  return {
    signal: budget.signal,
    dispose: () => {
      stopped?.removeEventListener('abort', start);
      clearTimeout(timer);
    },
  };
}
