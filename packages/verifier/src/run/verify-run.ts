import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redact } from '@print-contracts/client';
import { Arranger } from '../arrange/arranger.js';
import type { FixtureResult } from '../arrange/fixture-result.js';
import { TargetClients } from '../arrange/target-clients.js';
import { fetchBrokerPacts } from '../broker/broker-pacts.js';
import { PactFileError } from '../errors/pact-file-error.js';
import { Ledger } from '../ledger/ledger.js';
import { settleOrders } from '../ledger/settle-orders.js';
import type { VerifyOptions } from '../options/verify-options.js';
import type { LoadedPact } from '../pacts/interaction.js';
import { loadPactFiles } from '../pacts/load-pacts.js';
import type { FixtureRequest } from '../plan/fixture-spec.js';
import { type Plan, type PlannedInteraction, planRun } from '../plan/plan.js';
import { PactRunner } from '../replay/pact-runner.js';
import type { ReplayItem } from '../replay/replay-item.js';
import { makeShards } from '../replay/shard.js';
import type { ProxyContext } from '../replay/shard-server.js';
import { ConsoleReporter } from '../report/console-reporter.js';
import {
  countByVersion,
  countVerdicts,
  exitCodeFor,
  type InteractionReport,
  type RunReport,
  type TeardownReport,
} from '../report/model.js';
import { writeReports } from '../report/write-reports.js';
import { preflight } from '../target/preflight.js';
import { type StartedTarget, startTarget } from '../target/start-target.js';
import { type Target, targetSecrets } from '../target/target.js';
import { publishShards } from './broker-replay.js';
import { plannedReport, replayReport } from './interaction-reports.js';
import { manySignal } from './many-signal.js';
import { replayShard, type ScratchFiles, type ShardReplayContext } from './replay-shard.js';
import { Slots } from './slots.js';
import { EXIT_INTERRUPTED, type VerifyIo } from './verify-io.js';

/** Shards Pact replays at the same time (one native verifier thread each; 4 measured best on 2 cores). */
const REPLAY_CONCURRENCY = 4;
/** After an interrupt, how long the teardown may wait for orders still being created. */
const INTERRUPTED_TEARDOWN_MS = 15_000;
const PACKAGE_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
const clipReason = (text: string) => (text.length > 240 ? `${text.slice(0, 239)}…` : text);

/**
 * One verification run: load the contracts, start the target, plan, arrange every state
 * concurrently, replay with Pact's verifier through the loopback proxies, tear down every
 * order the run created, report. The caller gets the exit status.
 */
export class VerifyRun {
  readonly #options: VerifyOptions;
  readonly #io: VerifyIo;
  readonly #run = randomBytes(4).toString('hex');
  readonly #started = Date.now();
  readonly #t0 = performance.now();
  readonly #abort = new AbortController();
  #secrets: string[] = [];
  #reporter: ConsoleReporter;
  #interrupted = false;
  readonly #problems: string[] = [];
  readonly #pactOutput: string[] = [];

  constructor(options: VerifyOptions, io: VerifyIo) {
    this.#options = options;
    this.#io = io;
    const brokerSecrets = [options.broker?.auth.token, options.broker?.auth.password].filter(
      (value): value is string => Boolean(value),
    );
    const targetSecretsGiven =
      options.target.kind === 'url'
        ? [options.target.credentials.main.secret, options.target.credentials.other?.secret ?? '']
        : [];
    this.#secrets = [...targetSecretsGiven, ...brokerSecrets].filter(Boolean);
    this.#reporter = new ConsoleReporter(io.stdout, { quiet: options.quiet, secrets: this.#secrets });
  }

  /** Runs to the end; throws only `VerifierError`s raised before anything was created (exit 2). */
  async execute(): Promise<number> {
    const options = this.#options;
    const onInterrupt = () => {
      this.#interrupted = true;
      this.#abort.abort();
    };
    setMaxListeners(0, this.#abort.signal);
    if (this.#io.signal?.aborted) onInterrupt();
    this.#io.signal?.addEventListener('abort', onInterrupt, { once: true });
    const scratch = await mkdtemp(join(tmpdir(), 'contract-verify-'));
    const runner = new PactRunner(this.#io.pactWorker);
    const emptyCaStore = options.broker ? undefined : PactRunner.emptyCaStore(scratch);
    let started: StartedTarget | undefined;
    let clients: TargetClients | undefined;
    try {
      started = await startTarget(options.target);
      const { target } = started;
      this.#secrets = [...new Set([...this.#secrets, ...targetSecrets(target)])];
      this.#reporter = new ConsoleReporter(this.#io.stdout, { quiet: options.quiet, secrets: this.#secrets });
      clients = new TargetClients(target, options.requestTimeoutMs);
      const [pacts] = await Promise.all([
        this.#loadPacts(clients),
        preflight(clients.dispatcher, target, options.requestTimeoutMs),
      ]);
      const plan = planRun(pacts, {
        mode: target.mode,
        capabilities: {
          control: target.controlOrigin !== undefined,
          otherCredentials: target.credentials.other !== undefined,
        },
      });
      this.#announce(target, pacts);
      return await this.#verify(plan, started, clients, runner, { scratch, emptyCaStore });
    } finally {
      this.#io.signal?.removeEventListener('abort', onInterrupt);
      runner.stop();
      await clients?.close();
      await started?.sampleApi?.close();
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async #loadPacts(clients: TargetClients): Promise<LoadedPact[]> {
    const options = this.#options;
    const pacts = options.broker
      ? await fetchBrokerPacts(
          clients.dispatcher,
          options.broker,
          options.apiVersions,
          options.requestTimeoutMs,
        )
      : await loadPactFiles(options.pactPaths, this.#io.cwd);
    const chosen = pacts.filter((pact) => options.apiVersions.includes(pact.version));
    if (chosen.length === 0) {
      throw new PactFileError(
        options.pactPaths.join(', ') || 'the Pact Broker',
        `holds no pact for ${options.apiVersions.join(' or ')}`,
      );
    }
    return chosen;
  }

  #announce(target: Target, pacts: readonly LoadedPact[]): void {
    const where =
      target.kind === 'embedded'
        ? `embedded sample API at ${target.baseUrl}`
        : `${target.baseUrl} (mode ${target.mode})`;
    this.#reporter.progress(
      `Contract verification of ${where}, control surface ${target.controlOrigin ? 'on' : 'off'}`,
    );
    for (const pact of pacts) {
      this.#reporter.progress(
        `  pact ${pact.label}: ${pact.consumer} → ${pact.provider}, ${pact.interactions.length} interactions`,
      );
    }
  }

  async #verify(
    plan: Plan,
    started: StartedTarget,
    clients: TargetClients,
    runner: PactRunner,
    files: ScratchFiles,
  ): Promise<number> {
    const options = this.#options;
    const { target } = started;
    const ledger = Ledger.open(options.ledgerPath, this.#run);
    // An embedded sample API lives only as long as its run: what an earlier one left is gone.
    for (const entry of ledger.open()) {
      if (entry.embedded) ledger.close(entry.key, 'gone', 'the embedded sample API ended with its run');
    }
    const leftovers = ledger.open().length;
    if (leftovers > 0) {
      this.#reporter.say(
        `The ledger ${options.ledgerPath} holds ${leftovers} orders an earlier run left; \`pnpm verify --cleanup\` cancels them.`,
      );
    }
    const replayed = plan.interactions.filter((item) => item.status === 'replay').length;
    this.#reporter.progress(
      `Plan: ${replayed} to replay, ${plan.interactions.length - replayed} decided without replay, ${plan.fixtures.size} states to arrange`,
    );

    const arranger = new Arranger({
      clients,
      ledger,
      plannedCreates: plan.plannedCreates,
      creationTimeoutMs: options.creationTimeoutMs,
      pollIntervalMs: options.pollIntervalMs,
      timeoutMs: options.requestTimeoutMs,
      signal: this.#abort.signal,
      secrets: this.#secrets,
    });
    this.#startArranging(plan, arranger);

    const reports = new Map<string, InteractionReport>();
    for (const planned of plan.interactions)
      if (planned.status !== 'replay') reports.set(planned.id, plannedReport(planned));
    const slots = new Slots(REPLAY_CONCURRENCY);
    const proxy: ProxyContext = {
      target,
      dispatcher: clients.dispatcher,
      timeoutMs: options.requestTimeoutMs,
      ledger,
      secrets: this.#secrets,
      onExchange: (item: ReplayItem, exchange: ReplayItem['record']['exchanges'][number]) => {
        const outcome = exchange.failure ? `✗ ${exchange.failure}` : `${exchange.status}`;
        this.#reporter.progress(
          `  → ${item.planned.version} ${exchange.method} ${exchange.path} → ${outcome} (${exchange.ms} ms)  ${item.planned.interaction.description}`,
        );
      },
    };
    const replayContext: ShardReplayContext = {
      proxy,
      runner,
      files,
      broker: options.broker,
      requestTimeoutMs: options.requestTimeoutMs,
      appVersion: PACKAGE_VERSION,
      interrupted: () => this.#interrupted,
      problems: this.#problems,
      pactOutput: this.#pactOutput,
    };
    const shards = options.broker?.publish ? publishShards(plan) : makeShards(plan.interactions);
    await Promise.all(
      shards.map(async (shard) => {
        let results: { planned: PlannedInteraction; report: InteractionReport }[];
        try {
          const items = await this.#items(shard.interactions, arranger);
          results = await slots.use(() => replayShard(shard, items, replayContext));
        } catch (error) {
          // A bug must not skip the teardown: the shard's interactions fail with it, the run goes on.
          const message = `internal error: ${error instanceof Error ? error.message : String(error)}`;
          this.#problems.push(message);
          results = shard.interactions.map((planned) => ({
            planned,
            report: replayReport(
              { planned, states: [], record: { started: false, refused: undefined, exchanges: [] } },
              undefined,
              message,
            ),
          }));
        }
        for (const result of results) {
          reports.set(result.planned.id, result.report);
          if (result.planned.status === 'replay') this.#reporter.verdict(result.report);
        }
      }),
    );

    const teardown = await this.#teardown(ledger, started, clients);
    const interactions = plan.interactions.map(
      (planned) => reports.get(planned.id) ?? plannedReport(planned),
    );
    const totals = countVerdicts(interactions);
    const exitCode = this.#interrupted ? EXIT_INTERRUPTED : exitCodeFor(totals, options.strict);
    const report: RunReport = {
      tool: '@print-contracts/verifier',
      startedAt: new Date(this.#started).toISOString(),
      durationMs: Math.round(performance.now() - this.#t0),
      target: {
        kind: target.kind,
        baseUrl: target.baseUrl,
        mode: target.mode,
        control: target.controlOrigin !== undefined,
      },
      strict: options.strict,
      interrupted: this.#interrupted,
      exitCode,
      totals,
      byVersion: countByVersion(interactions),
      interactions,
      teardown,
      problems: this.#problems.map((problem) => redact(problem, this.#secrets)),
    };
    this.#reporter.matrix(report);
    const written = await writeReports(report, options.reportDir, this.#secrets, this.#pactOutput.join('\n'));
    this.#reporter.say(
      `Teardown: ${teardown.settled} created orders settled${teardown.open > 0 ? `, ${teardown.open} still open in ${teardown.ledger} (run \`pnpm verify --cleanup\`)` : ''}.`,
    );
    for (const problem of teardown.problems) this.#reporter.say(`  ${problem}`);
    this.#reporter.say(`Reports: ${written.join(', ')}`);
    if (this.#interrupted)
      this.#reporter.say('Interrupted: the replay stopped early; the orders it created were torn down.');
    return exitCode;
  }

  /** Starts every fixture at once, and prints each one as it settles. */
  #startArranging(plan: Plan, arranger: Arranger): void {
    const users = new Map<string, number>();
    for (const planned of plan.interactions) {
      for (const fixture of planned.fixtures)
        if (fixture) users.set(fixture.key, (users.get(fixture.key) ?? 0) + 1);
    }
    for (const fixture of plan.fixtures.values()) {
      void arranger
        .arrange(fixture)
        .then((result) => this.#printFixture(fixture, result, users.get(fixture.key) ?? 0));
    }
  }

  #printFixture(fixture: FixtureRequest, result: FixtureResult, users: number): void {
    const shared = users > 1 ? ` (for ${users} interactions)` : '';
    const outcome = result.ok
      ? `ready${result.values.id !== undefined ? `: order ${result.values.id}` : result.values.uuid ? `: order ${result.values.uuid}` : ''}`
      : `${result.verdict === 'failed' ? 'FAILED' : 'not verifiable here'}: ${clipReason(result.reason)}`;
    this.#reporter.progress(
      `  state ${fixture.version} "${fixture.label}"${shared} → ${outcome} (${result.ms} ms)`,
    );
  }

  async #items(interactions: readonly PlannedInteraction[], arranger: Arranger): Promise<ReplayItem[]> {
    return Promise.all(
      interactions.map(async (planned) => ({
        planned,
        states: await Promise.all(
          planned.fixtures.map((fixture) => (fixture ? arranger.arrange(fixture) : undefined)),
        ),
        record: { started: false, refused: undefined, exchanges: [] },
      })),
    );
  }

  async #teardown(ledger: Ledger, started: StartedTarget, clients: TargetClients): Promise<TeardownReport> {
    const options = this.#options;
    const mine = ledger.open().filter((entry) => entry.run === this.#run);
    if (mine.length > 0) this.#reporter.progress(`Teardown: settling ${mine.length} orders the run created`);
    const outcome = await settleOrders(mine, {
      ledger,
      clientsFor: (entry) => (entry.target === started.target.baseUrl ? clients : undefined),
      runningEmbedded: started.sampleApi ? started.target.baseUrl : undefined,
      waitMs: this.#interrupted ? INTERRUPTED_TEARDOWN_MS : options.creationTimeoutMs,
      pollIntervalMs: options.pollIntervalMs,
      unresolved: 'keep',
      secrets: this.#secrets,
      signal: manySignal(
        AbortSignal.timeout(this.#interrupted ? INTERRUPTED_TEARDOWN_MS : options.creationTimeoutMs + 60_000),
      ),
    });
    // Orders of the embedded sample API end with it.
    if (started.sampleApi) {
      for (const entry of ledger.open()) {
        if (entry.run === this.#run && entry.embedded)
          ledger.close(entry.key, 'gone', 'the embedded sample API stopped');
      }
    }
    const removed = ledger.removeIfSettled();
    return {
      settled: outcome.settled,
      open: ledger.open().length,
      problems: outcome.problems,
      ledger: removed ? undefined : ledger.path,
    };
  }
}
