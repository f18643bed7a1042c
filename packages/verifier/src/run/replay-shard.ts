import { isReplayError } from '../errors/replay-error.js';
import type { BrokerOptions } from '../options/verify-options.js';
import type { PlannedInteraction } from '../plan/plan.js';
import { pactResultSchema, verdictsFrom } from '../replay/pact-results.js';
import type { PactRunner } from '../replay/pact-runner.js';
import type { ReplayItem } from '../replay/replay-item.js';
import { type Shard, writeShardFile } from '../replay/shard.js';
import { type ProxyContext, startShardServer } from '../replay/shard-server.js';
import { stripAnsi } from '../report/ansi.js';
import type { InteractionReport } from '../report/model.js';
import { describeFilter } from './broker-replay.js';
import { replayReport } from './interaction-reports.js';

/** The run's scratch folder, and the empty CA store in it when Pact talks to loopback only. */
export interface ScratchFiles {
  readonly scratch: string;
  readonly emptyCaStore: { readonly file: string; readonly dir: string } | undefined;
}

/** What replaying a shard needs from its run, and where it leaves problems and Pact's output. */
export interface ShardReplayContext {
  readonly proxy: ProxyContext;
  readonly runner: PactRunner;
  readonly files: ScratchFiles;
  readonly broker: BrokerOptions | undefined;
  readonly requestTimeoutMs: number;
  readonly appVersion: string;
  readonly interrupted: () => boolean;
  readonly problems: string[];
  readonly pactOutput: string[];
}

/** One interaction's report, as the replay of its shard decided. */
export interface ShardVerdict {
  readonly planned: PlannedInteraction;
  readonly report: InteractionReport;
}

/**
 * Replays one shard: starts its loopback proxy, has Pact's verifier replay the shard's pact
 * file (or, to publish, the broker's pact filtered to the shard), and turns Pact's JSON
 * result into one report per interaction. A verifier that cannot run fails the shard's
 * interactions with its reason; it never ends the run.
 */
export async function replayShard(
  shard: Shard,
  items: readonly ReplayItem[],
  context: ShardReplayContext,
): Promise<ShardVerdict[]> {
  const finish = (verdicts: Parameters<typeof replayReport>[1][] | undefined, fallback: string) =>
    items.map((item, index) => ({
      planned: item.planned,
      report: replayReport(item, verdicts?.[index], fallback),
    }));
  if (context.interrupted()) return finish(undefined, 'not replayed: the run was interrupted');
  // Nothing to ask Pact when every interaction's state already failed.
  if (items.every((item) => item.states.some((state) => state && !state.ok))) {
    for (const item of items) item.record.refused = item.states.find((state) => state && !state.ok);
    return finish(undefined, 'its provider state could not be arranged');
  }
  const server = await startShardServer(items, shard.pact.version, context.proxy);
  try {
    const source =
      shard.kind === 'publish'
        ? {
            urls: [shard.pact.source.kind === 'broker' ? shard.pact.source.url : ''],
            filterDescription: describeFilter(shard),
          }
        : { files: [await writeShardFile(shard, context.files.scratch)] };
    const broker = context.broker;
    const outcome = await context.runner.verify({
      provider: shard.pact.provider,
      host: server.host,
      port: server.port,
      basePath: '/',
      stateUrl: server.stateUrl,
      // Longer than the proxy's own bound, so the proxy explains a slow target first.
      timeoutMs: context.requestTimeoutMs + 5_000,
      ...source,
      ...(shard.kind === 'publish' && broker
        ? {
            brokerAuth: broker.auth,
            publish: {
              providerVersion: broker.providerVersion ?? '',
              ...(broker.providerBranch ? { branch: broker.providerBranch } : {}),
            },
          }
        : {}),
      ...(context.files.emptyCaStore ? { emptyCaStore: context.files.emptyCaStore } : {}),
      appVersion: context.appVersion,
    });
    let json: unknown;
    try {
      json = JSON.parse(outcome.json);
    } catch {
      json = undefined;
    }
    const parsed = pactResultSchema.safeParse(json);
    if (!parsed.success) {
      context.problems.push(
        `Pact's verifier gave no readable result for ${shard.pact.label} (exit code ${outcome.code})`,
      );
      return finish(undefined, `Pact's verifier gave no readable result (exit code ${outcome.code})`);
    }
    context.pactOutput.push(stripAnsi(parsed.data.output.join('\n')));
    const verdicts = verdictsFrom(
      parsed.data,
      items.map((item) => ({
        description: item.planned.interaction.description,
        key: item.planned.interaction.key,
      })),
    );
    const broken = server.sequence.broken;
    if (broken) context.problems.push(broken);
    if (typeof verdicts === 'string') {
      context.problems.push(`${shard.pact.label}: ${verdicts}`);
      return finish(undefined, `its verdict could not be read: ${verdicts}`);
    }
    return finish(verdicts, broken ?? 'no verdict');
  } catch (error) {
    if (!isReplayError(error)) throw error;
    const reason = context.interrupted() ? 'not verified: the run was interrupted' : error.message;
    if (!context.interrupted()) context.problems.push(error.message);
    return finish(undefined, reason);
  } finally {
    await server.close();
  }
}
