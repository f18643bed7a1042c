import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArrangedInteraction, Arrangement } from '../arrange/arrange.js';
import { isReplayError, ReplayError } from '../errors/index.js';
import type { BrokerOptions } from '../options/verify-options.js';
import type { LoadedPact } from '../pacts/interaction.js';
import type { NotVerifiableCode } from '../plan/not-verifiable.js';
import type { Verdict } from '../plan/plan.js';
import { type PactVerdict, pactResultSchema, stripAnsi, verdictsFrom } from './pact-results.js';
import type { PactRunner, VerifyJob } from './pact-runner.js';
import { Availability, type Exchange, type ForwardContext } from './proxy/forwarder.js';
import { startProxy } from './proxy/proxy.js';
import { type FilterContext, parseBody } from './proxy/request-filter.js';
import { StateSequence } from './proxy/state-endpoint.js';

/** One interaction after the replay: its verdict, and every request the proxy saw for it. */
export interface ReplayedInteraction {
  readonly arranged: ArrangedInteraction;
  readonly verdict: Verdict;
  /** One line: why it failed, or why it was not verified. */
  readonly reason: string | undefined;
  /** With `not-verifiable`: the target property of the closed list (`plan/not-verifiable.ts`). */
  readonly code?: NotVerifiableCode | undefined;
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
  readonly trustNothing: VerifyJob['trustNothing'];
  readonly broker: BrokerOptions | undefined;
  readonly appVersion: string;
  readonly interrupted: () => boolean;
  /** Each request replayed, as the proxy sees it. */
  readonly progress: (line: string) => void;
  /** The interactions of one run of Pact's verifier, once it has judged them. */
  readonly finished?: (items: readonly ReplayedInteraction[]) => void;
  /** Told of the verifier's own faults on a request: the run ends broken. */
  readonly broke?: (fault: unknown) => void;
}

/** What the pacts of one replay share. */
type RunContext = ReplayOptions & {
  readonly availability: Availability;
  readonly missing: ReadonlySet<string>;
};

/**
 * The replay stage: per wave of the arrangement (the first replays while the second is arranged) and
 * per pact, one run of Pact's verifier through a proxy of its own. Decided interactions keep their verdict.
 */
export async function replay(arrangement: Arrangement, options: ReplayOptions): Promise<Replayed> {
  const context: RunContext = { ...options, availability: new Availability(), missing: arrangement.missing };
  let jobs = 0;
  const wave = (items: readonly ArrangedInteraction[]) => {
    const pacts = [...new Set(items.map((item) => item.planned.pact))];
    const mine = (pact: LoadedPact) => items.filter((item) => item.planned.pact === pact);
    return Promise.all(
      pacts.map(async (pact) => {
        const replayed = await replayPact(pact, jobs++, mine(pact), context);
        options.finished?.(replayed.interactions);
        return replayed;
      }),
    );
  };
  const first = new Set(arrangement.ready.map((item) => item.planned.id));
  // Publishing, Pact publishes one result per pact: one run per pact takes all its interactions.
  const waves = options.broker?.publish
    ? [arrangement.all]
    : [arrangement.ready, arrangement.all.then((all) => all.filter((item) => !first.has(item.planned.id)))];
  const replays = (await Promise.all(waves.map(async (items) => wave(await items)))).flat();
  const byId = new Map(
    replays.flatMap((pact) => pact.interactions).map((item) => [item.arranged.planned.id, item]),
  );
  return {
    interactions: (await arrangement.all).map((item) => byId.get(item.planned.id) as ReplayedInteraction),
    pactOutput: replays.flatMap((pact) => pact.pactOutput || []).join('\n'),
    problems: replays.flatMap((pact) => pact.problems),
  };
}

/** One run of Pact's verifier over one pact's interactions of a wave; those it gives no verdict get why not. */
async function replayPact(
  pact: LoadedPact,
  index: number,
  items: readonly ArrangedInteraction[],
  context: RunContext,
): Promise<Replayed> {
  const { broker, interrupted } = context;
  const unjudged = (why: string, problems: readonly string[] = []) => ({
    interactions: items.map((item) => settled(item, [], why, interrupted)),
    problems,
    pactOutput: '',
  });
  if (items.every((item) => item.decided) || interrupted()) return unjudged('no verdict');
  const ready = items.filter((item) => !item.decided);
  const publish = broker?.publish === true && pact.source.kind === 'broker';
  // Publishing, Pact fetches the pact itself and replays all of it, so that the result the broker
  // files is the whole pact's: an interaction kept back (decided, not verifiable here) is refused
  // at its state call, and the pact is filed as not verified. Creates first otherwise: the
  // teardown waits until the vendor has made their orders before it can cancel them.
  const replayed = publish
    ? items
    : [...ready.filter((item) => item.planned.creates), ...ready.filter((item) => !item.planned.creates)];
  const sequence = new StateSequence(
    replayed.map((item) => ({
      id: item.planned.id,
      description: item.planned.interaction.description,
      states: item.planned.interaction.states,
      values: item.states.map((state) => state?.values),
      refusal: item.decided?.reason,
    })),
  );
  const exchanges = new Map<string, Exchange[]>();
  const proxy = await startProxy({
    sequence,
    filter: context,
    forward: { ...context, version: pact.version },
    broke: context.broke,
    onExchange: (item, exchange) => {
      exchanges.set(item.id, [...(exchanges.get(item.id) ?? []), exchange]);
      const outcome = exchange.failure ? `✗ ${exchange.failure}` : `${exchange.status}`;
      context.progress(
        `  → ${exchange.version} ${exchange.method} ${exchange.path} → ${outcome} (${exchange.ms} ms)  ${item.description}`,
      );
    },
  });
  try {
    const file = join(context.scratch, `pact-${index}.json`);
    const interactions = replayed.map((item) => item.planned.interaction.raw);
    if (!publish) await writeFile(file, JSON.stringify({ ...pact.document, interactions }));
    const outcome = await context.runner.verify({
      provider: pact.provider,
      host: proxy.host,
      port: proxy.port,
      stateUrl: proxy.stateUrl,
      // Longer than the proxy's retries, so the proxy explains a slow target first.
      timeoutMs:
        context.retry.budgetMs + (context.timeoutMs + context.retry.maxDelayMs) * (context.retry.retries + 2),
      appVersion: context.appVersion,
      ...(publish
        ? {
            urls: [pact.source.url],
            brokerAuth: broker.auth,
            publish: { providerVersion: broker.providerVersion ?? '', branch: broker.providerBranch },
          }
        : { files: [file], trustNothing: context.trustNothing }),
    });
    const parsed = pactResultSchema.safeParse(parseBody(outcome.json));
    if (!parsed.success) {
      const why = `Pact's verifier gave no readable result for ${pact.label} (exit code ${outcome.code})`;
      context.broke?.(new ReplayError(why));
      return unjudged(why, [why]);
    }
    const verdicts = verdictsFrom(
      parsed.data,
      replayed.map((item) => item.planned.interaction),
    );
    const problems = typeof verdicts === 'string' ? [`${pact.label}: ${verdicts}`] : [];
    if (sequence.broken) problems.push(sequence.broken);
    // Pact's results not lining up, or its state calls out of step: the kit's side, no verdict.
    if (problems.length > 0 && !interrupted()) context.broke?.(new ReplayError(problems.join('; ')));
    const judged = (item: ArrangedInteraction) =>
      typeof verdicts === 'string' ? verdicts : (verdicts[replayed.indexOf(item)] ?? 'no verdict');
    return {
      interactions: items.map((item) =>
        settled(item, exchanges.get(item.planned.id) ?? [], judged(item), interrupted),
      ),
      problems,
      pactOutput: stripAnsi(parsed.data.output.join('\n')),
    };
  } catch (error) {
    if (!isReplayError(error)) throw error;
    // Pact's verifier crashed or refused its arguments: the kit's side, no verdict; the run ends broken.
    if (!interrupted()) context.broke?.(error);
    return unjudged(error.message, interrupted() ? [] : [error.message]);
  } finally {
    await proxy.close();
  }
}

/** One interaction's verdict: decided earlier, from what the proxy saw, or what Pact judged (or why not). */
function settled(
  item: ArrangedInteraction,
  exchanges: readonly Exchange[],
  judged: PactVerdict | string,
  interrupted: () => boolean,
): ReplayedInteraction {
  const none = { arranged: item, mismatches: [], ms: undefined, exchanges: [] };
  if (item.decided) return { ...none, ...item.decided };
  const base = { ...none, ms: typeof judged === 'string' ? undefined : judged.ms, exchanges };
  const broken = exchanges.find((exchange) => exchange.broke);
  if (broken) return { ...base, verdict: 'not-run', reason: `not judged: ${broken.failure}` };
  // Stopped by a signal before Pact judged it: what was not replayed is not run, never the target's fault.
  if (interrupted() && (typeof judged === 'string' || exchanges.some((exchange) => exchange.failure))) {
    return { ...base, verdict: 'not-run', reason: 'not run: the run was stopped before its replay ended' };
  }
  const unavailable = exchanges.find((exchange) => exchange.unavailable);
  if (unavailable) return { ...base, verdict: 'target-unavailable', reason: unavailable.failure };
  // The request filter refuses only what live safety forbids (a path outside the API is failed by the plan).
  const refused = exchanges.find((exchange) => exchange.failure);
  if (refused?.failure) {
    const code = 'live-safety';
    return { ...base, verdict: 'not-verifiable', reason: refused.failure, code };
  }
  // A pending interaction's failure is reported as one, and fails no run (the report's exit status).
  const pending = item.planned.pending ? 'pending, so it fails no run: ' : '';
  // No verdict of Pact's (it crashed, or its results did not line up): nothing of the target's was judged.
  if (typeof judged === 'string') return { ...base, verdict: 'not-run', reason: `not judged: ${judged}` };
  if (judged.passed) return { ...base, verdict: 'verified', reason: undefined };
  const redirected = exchanges.find((exchange) => exchange.redirect !== undefined);
  const mismatch = judged.mismatches[0] ?? 'Pact reported a failure';
  const reason = redirected
    ? `the target answered ${redirected.status}, a redirect to ${redirected.redirect}, which the client does not follow: ${mismatch}`
    : mismatch;
  return { ...base, verdict: 'failed', reason: `${pending}${reason}`, mismatches: judged.mismatches };
}
