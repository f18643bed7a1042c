import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArrangedInteraction, Arrangement } from '../arrange/arrange.js';
import { isReplayError } from '../errors/replay-error.js';
import type { BrokerOptions } from '../options/verify-options.js';
import type { LoadedPact } from '../pacts/interaction.js';
import type { Verdict } from '../plan/plan.js';
import { type PactVerdict, pactResultSchema, stripAnsi, verdictsFrom } from './pact-results.js';
import type { PactRunner, VerifyJob } from './pact-runner.js';
import { Availability, type Exchange, type ForwardContext } from './proxy/forwarder.js';
import { startProxy } from './proxy/proxy.js';
import { type FilterContext, parseBody } from './proxy/request-filter.js';
import { type SequenceItem, StateSequence } from './proxy/state-sequence.js';

/** One interaction after the replay: its verdict, and every request the proxy saw for it. */
export interface ReplayedInteraction {
  readonly arranged: ArrangedInteraction;
  readonly verdict: Verdict;
  /** One line: why it failed, or why it was not verified. */
  readonly reason: string | undefined;
  /** Pact's mismatches, shortened. */
  readonly mismatches: readonly string[];
  readonly ms: number | undefined;
  readonly exchanges: readonly Exchange[];
}

/** The replay stage's result. */
export interface Replayed {
  readonly interactions: readonly ReplayedInteraction[];
  /** Pact's own text output, for `pact-verifier-output.txt`. */
  readonly pactOutput: string;
  /** Things that went wrong beside the interactions (Pact out of step, a crashed verifier). */
  readonly problems: readonly string[];
}

export interface ReplayOptions
  extends Omit<FilterContext, 'missing'>,
    Omit<ForwardContext, 'availability' | 'version' | 'source'> {
  readonly runner: PactRunner;
  /** Where the pact files Pact replays are written. */
  readonly scratch: string;
  readonly emptyCaStore: VerifyJob['emptyCaStore'];
  readonly broker: BrokerOptions | undefined;
  readonly appVersion: string;
  readonly interrupted: () => boolean;
  readonly progress: (line: string) => void;
}

/**
 * The replay stage: per wave of the arrangement and per pact, one run of Pact's verifier over
 * the interactions made ready, in file order, against a loopback proxy of its own. The first
 * wave replays while the second is still being arranged; publishing to a broker, one run per
 * pact takes them all. Pact judges the answers; the proxy's record says when no answer came or
 * a request was refused. Decided interactions keep their verdict.
 */
export async function replay(arrangement: Arrangement, options: ReplayOptions): Promise<Replayed> {
  const run: Run = {
    options,
    availability: new Availability(),
    missing: arrangement.missing,
    verdicts: new Map(),
    problems: [],
    output: [],
    jobs: 0,
  };
  if (options.broker?.publish) {
    await replayWave(await arrangement.all, run);
  } else {
    const first = new Set(arrangement.ready.map((item) => item.planned.id));
    await Promise.all([
      replayWave(arrangement.ready, run),
      arrangement.all.then((all) =>
        replayWave(
          all.filter((item) => !first.has(item.planned.id)),
          run,
        ),
      ),
    ]);
  }
  return {
    interactions: (await arrangement.all).map(
      (item) => run.verdicts.get(item.planned.id) as ReplayedInteraction,
    ),
    pactOutput: run.output.join('\n'),
    problems: run.problems,
  };
}

/** What the waves of one replay share. */
interface Run {
  readonly options: ReplayOptions;
  readonly availability: Availability;
  /** Order ids the arrange stage proved do not exist: requests may name them, also in live mode. */
  readonly missing: ReadonlySet<string>;
  readonly verdicts: Map<string, ReplayedInteraction>;
  readonly problems: string[];
  readonly output: string[];
  /** Pact files written so far, to name the next one. */
  jobs: number;
}

async function replayWave(items: readonly ArrangedInteraction[], run: Run): Promise<void> {
  const { options } = run;
  const pacts = [...new Set(items.map((item) => item.planned.pact))];
  await Promise.all(
    pacts.map(async (pact) => {
      const mine = items.filter((item) => item.planned.pact === pact);
      const results = await replayPact(pact, run.jobs++, mine, run).catch((error: unknown) => {
        if (!isReplayError(error)) throw error;
        if (!options.interrupted()) run.problems.push(error.message);
        return { verdicts: [], problems: [], output: '', fallback: error.message };
      });
      for (const verdict of results.verdicts) run.verdicts.set(verdict.arranged.planned.id, verdict);
      run.problems.push(...results.problems);
      if (results.output) run.output.push(results.output);
      for (const item of mine) {
        if (!run.verdicts.has(item.planned.id)) {
          run.verdicts.set(item.planned.id, settled(item, undefined, [], results.fallback, options));
        }
      }
    }),
  );
}

/** Replays one pact; interactions it gives no verdict get one from `fallback`. */
async function replayPact(pact: LoadedPact, index: number, items: readonly ArrangedInteraction[], run: Run) {
  const { options, availability } = run;
  const none = { verdicts: [] as ReplayedInteraction[], problems: [] as string[], output: '' };
  const ready = items.filter((item) => !item.decided);
  if (ready.length === 0 || options.interrupted()) return { ...none, fallback: 'no verdict' };
  const publish = options.broker?.publish === true && pact.source.kind === 'broker';
  // Publishing, Pact fetches the pact itself and filters it by description: an interaction kept
  // back that shares a description with a replayed one is refused at its state call.
  const descriptions = new Set(ready.map((item) => item.planned.interaction.description));
  const replayed = publish
    ? items.filter((item) => descriptions.has(item.planned.interaction.description))
    : ready;
  const sequenceItems: SequenceItem[] = replayed.map((item) => ({
    id: item.planned.id,
    description: item.planned.interaction.description,
    states: item.planned.interaction.states,
    values: item.states.map((state) => state?.values),
    refusal: item.decided?.reason,
  }));
  const exchanges = new Map<string, Exchange[]>();
  const stateSequence = new StateSequence(sequenceItems);
  const proxy = await startProxy({
    sequence: stateSequence,
    filter: { ...options, missing: run.missing },
    forward: { ...options, availability, version: pact.version },
    onExchange: (item, exchange) => {
      exchanges.set(item.id, [...(exchanges.get(item.id) ?? []), exchange]);
      const outcome = exchange.failure ? `✗ ${exchange.failure}` : `${exchange.status}`;
      options.progress(
        `  → ${exchange.version} ${exchange.method} ${exchange.path} → ${outcome} (${exchange.ms} ms)  ${item.description}`,
      );
    },
  });
  try {
    let source: Pick<
      VerifyJob,
      'files' | 'urls' | 'filterDescription' | 'brokerAuth' | 'publish' | 'emptyCaStore'
    >;
    if (publish && options.broker) {
      const { auth, providerVersion, providerBranch } = options.broker;
      source = {
        urls: [pact.source.kind === 'broker' ? pact.source.url : ''],
        filterDescription: `^(?:${[...descriptions].map(escapeRustRegex).join('|')})$`,
        brokerAuth: auth,
        publish: {
          providerVersion: providerVersion ?? '',
          ...(providerBranch ? { branch: providerBranch } : {}),
        },
      };
    } else {
      const file = join(options.scratch, `pact-${index}.json`);
      const interactions = replayed.map((item) => item.planned.interaction.raw);
      await writeFile(file, JSON.stringify({ ...pact.document, interactions }));
      source = { files: [file], ...(options.emptyCaStore ? { emptyCaStore: options.emptyCaStore } : {}) };
    }
    const outcome = await options.runner.verify({
      provider: pact.provider,
      host: proxy.host,
      port: proxy.port,
      basePath: '/',
      stateUrl: proxy.stateUrl,
      // Longer than the proxy's retries, so the proxy explains a slow target first.
      timeoutMs: (options.timeoutMs + options.retry.maxDelayMs) * (options.retry.attempts + 1),
      ...source,
      appVersion: options.appVersion,
    });
    const parsed = pactResultSchema.safeParse(parseBody(outcome.json));
    if (!parsed.success) {
      const problem = `Pact's verifier gave no readable result for ${pact.label} (exit code ${outcome.code})`;
      return { ...none, problems: [problem], fallback: problem };
    }
    const results = verdictsFrom(
      parsed.data,
      replayed.map((item) => ({
        description: item.planned.interaction.description,
        key: item.planned.interaction.key,
      })),
    );
    const problems = typeof results === 'string' ? [`${pact.label}: ${results}`] : [];
    if (stateSequence.broken) problems.push(stateSequence.broken);
    const fallback = typeof results === 'string' ? results : 'no verdict';
    const verdicts = replayed.flatMap((item, position) => {
      if (item.decided) return [];
      const verdict = typeof results === 'string' ? undefined : results[position];
      return [settled(item, verdict, exchanges.get(item.planned.id) ?? [], fallback, options)];
    });
    return { verdicts, problems, output: stripAnsi(parsed.data.output.join('\n')), fallback: 'no verdict' };
  } finally {
    await proxy.close();
  }
}

/** One interaction's verdict: decided earlier, from what the proxy saw, or what Pact judged. */
function settled(
  item: ArrangedInteraction,
  verdict: PactVerdict | undefined,
  exchanges: readonly Exchange[],
  fallback: string,
  options: ReplayOptions,
): ReplayedInteraction {
  const base = { arranged: item, mismatches: [] as string[], ms: verdict?.ms, exchanges };
  if (item.decided) return { ...base, verdict: item.decided.verdict, reason: item.decided.reason };
  const unavailable = exchanges.find((exchange) => exchange.unavailable);
  if (unavailable) return { ...base, verdict: 'target-unavailable', reason: unavailable.failure };
  const refused = exchanges.find((exchange) => exchange.failure);
  if (refused) return { ...base, verdict: 'not-verifiable', reason: refused.failure };
  if (!verdict) {
    const interrupted = options.interrupted();
    return {
      ...base,
      verdict: interrupted ? 'not-verifiable' : 'failed',
      reason: interrupted ? 'not replayed: the run was interrupted' : fallback,
    };
  }
  if (verdict.passed) return { ...base, verdict: 'verified', reason: undefined };
  return {
    ...base,
    verdict: 'failed',
    reason: verdict.mismatches[0] ?? 'Pact reported a failure',
    mismatches: verdict.mismatches,
  };
}

/** Characters the Rust `regex` crate treats as syntax. */
const escapeRustRegex = (text: string) => text.replace(/[\\.+*?()|[\]{}^$#&\-~]/g, (char) => `\\${char}`);
