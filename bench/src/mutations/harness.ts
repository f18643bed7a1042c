import { access, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiVersion, ENV, OrdersClient } from '@print-contracts/client';
import { documentedBody, providerName } from '@print-contracts/client/kit';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import { captureIo, startAlteringProxy } from '@print-contracts/test-support';
import {
  OTHER_SECRET_ENV,
  OTHER_USER_ID_ENV,
  REPORT_FILES,
  type RunReport,
  runVerify,
  VERIFY_USAGE,
} from '@print-contracts/verifier';
import { alterationOf } from './alteration.js';
import { isLostKind, type Mutation } from './generate.js';
import type { PactDocument } from './pact-pins.js';

/** The committed pacts, each with the API version its provider name says. */
export async function readPacts(dir: string): Promise<{ version: ApiVersion; document: PactDocument }[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const pacts = await Promise.all(
    files.map(
      async (name) =>
        JSON.parse(await readFile(join(dir, name), 'utf8')) as PactDocument & {
          provider?: { name?: string };
        },
    ),
  );
  return pacts.flatMap((document) => {
    const version = (['v1', 'v2'] as const).find((each) => document.provider?.name === providerName(each));
    return version ? [{ version, document }] : [];
  });
}

/** The verifier takes an earlier run's report to name regressions (issue 21); today's may not yet. */
export const verifierTakesBaseline = () => /--baseline\b/.test(VERIFY_USAGE);

/** `unavailable`: a mutation that loses answers met with "target unavailable", never FAILED. */
export type Outcome = 'caught' | 'missed' | 'green' | 'false alarm' | 'unavailable' | 'neither';

export interface MutationResult {
  readonly name: string;
  readonly kind: Mutation['kind'];
  readonly harmful: boolean;
  readonly outcome: Outcome;
  readonly exitCode: number;
  readonly totals: RunReport['totals'] | undefined;
  /** Interactions whose verdict differs from the unaltered stand-in's: `v2 a request …: verified → not-verifiable`. */
  readonly changed: readonly string[];
  /** The sample API holds open an order the run created: the vendor's word, not the kit's. */
  readonly leftOpen: boolean;
  /** The run's ledger still lists an order it did not settle (the kit's word). */
  readonly ledgerKept: boolean;
  /** More orders open at the sample API than the run's report says are open: left open unsaid. */
  readonly unsaid: boolean;
  readonly seconds: number;
}

export interface StandInRun {
  readonly exitCode: number;
  /** Orders open at the sample API after the run that were not before it (read past the proxy). */
  readonly leftOpen: number;
  /** Settling removes a ledger once every order in it is crossed off: one still there holds an open order. */
  readonly ledgerKept: boolean;
  readonly report: RunReport | undefined;
  readonly reportFile: string;
}

export interface HarnessOptions {
  /** A scratch folder: one report folder and ledger per run go below it. */
  readonly work: string;
  /** The pact folder (contracts/). */
  readonly pacts: string;
  /**
   * `--creation-timeout` of each run (default 30 s): the bound a failed creation is told apart by,
   * and each request's retry budget. The sample API processes an order in 50 ms.
   */
  readonly creationTimeoutMs?: number;
  /** Orders each credential set gets before a run, beyond the seeds (default `EXTRA_ORDERS`). */
  readonly extraOrders?: number;
}

let runs = 0;
/** How long the stand-in takes to process an order (the sample API's default). */
const PROCESSING_MS = 50;

/**
 * `pnpm verify --base-url … --mode sample --control` in-process against a fresh sample API
 * behind the mutation's altering proxy (none for the unaltered stand-in), one version when the
 * mutation is scoped to one.
 */
export async function verifyStandIn(
  mutation: Mutation | undefined,
  options: HarnessOptions & { version: ApiVersion | 'any'; baseline?: string },
): Promise<StandInRun> {
  const api = await startSampleApi({
    control: true,
    processingDelayMs: PROCESSING_MS,
    ...(mutation?.kind === 'latency' ? { faults: [{ latencyMs: mutation.latencyMs }] } : {}),
  });
  await addOrders(api, options.extraOrders ?? EXTRA_ORDERS);
  const openBefore = new Set(await openOrders(api));
  const proxy = await startAlteringProxy(api.origin, mutation ? alterationOf(mutation, api.origin) : {});
  const dir = join(options.work, `run-${++runs}`);
  await mkdir(dir, { recursive: true });
  const [main, other] = api.credentials;
  const { io } = captureIo({
    cwd: dir,
    env: {
      [ENV.userId]: main?.userId,
      [ENV.secret]: main?.secret,
      [OTHER_USER_ID_ENV]: other?.userId,
      [OTHER_SECRET_ENV]: other?.secret,
    },
  });
  try {
    const exitCode = await runVerify(
      [
        ...['--base-url', `${proxy.origin}/api`, '--mode', 'sample', '--control', '--quiet'],
        ...['--pact', options.pacts, '--report-dir', dir, '--ledger', join(dir, 'ledger.jsonl')],
        // The sample API processes an order in 50 ms: poll it as the embedded run does.
        ...['--poll-interval', '50', '--creation-timeout', String(options.creationTimeoutMs ?? 30_000)],
        ...(options.version === 'any' ? [] : ['--api-version', options.version]),
        ...(options.baseline ? ['--baseline', options.baseline] : []),
      ],
      io,
    );
    const reportFile = join(dir, REPORT_FILES.json);
    const report = await readFile(reportFile, 'utf8').then(
      (text) => JSON.parse(text) as RunReport,
      () => undefined,
    );
    const ledgerKept = await access(join(dir, 'ledger.jsonl')).then(
      () => true,
      () => false,
    );
    // An order lists once processed: one the run created at its very end is counted too.
    await sleep(2 * PROCESSING_MS);
    const leftOpen = (await openOrders(api)).filter((order) => !openBefore.has(order)).length;
    return { exitCode, leftOpen, ledgerKept, report, reportFile };
  } finally {
    await proxy.close();
    await api.close();
  }
}

/** `user:id` of every order each credential set of the sample API holds open. */
/**
 * Orders each credential set gets before a run, beyond the sample API's seeds: the list then runs
 * past the pacts' page at limit 10, offset 10 before the run creates anything, so a vendor that
 * ignores `limit` is visible there however far the run's own creates have got.
 */
export const EXTRA_ORDERS = 10;

async function addOrders(api: SampleApi, count: number): Promise<void> {
  if (count === 0) return;
  for (const credentials of api.credentials) {
    const client = new OrdersClient({ baseUrl: api.url, ...credentials, apiVersion: 'v2' });
    try {
      const body = { ...documentedBody('createOrder'), testOrder: true };
      await Promise.all(Array.from({ length: count }, () => client.createOrder(body)));
    } finally {
      await client.close();
    }
  }
  // An order lists once processed.
  await sleep(2 * PROCESSING_MS);
}

async function openOrders(api: SampleApi): Promise<string[]> {
  const open: string[] = [];
  for (const credentials of api.credentials) {
    const client = new OrdersClient({ baseUrl: api.url, ...credentials, apiVersion: 'v2' });
    try {
      for await (const order of client.listAllOrders()) {
        if (order.status !== 'cancelled') open.push(`${credentials.userId}:${order.id}`);
      }
    } finally {
      await client.close();
    }
  }
  return open;
}

const verdicts = (report: RunReport | undefined) =>
  new Map((report?.interactions ?? []).map((item) => [`${item.version} ${item.description}`, item.verdict]));

/** What changed between the unaltered run and the mutated one, interaction by interaction. */
export function changedVerdicts(before: RunReport | undefined, after: RunReport | undefined): string[] {
  const was = verdicts(before);
  return [...verdicts(after)]
    .filter(([key, verdict]) => was.get(key) !== verdict)
    .map(([key, verdict]) => `${key}: ${was.get(key) ?? 'absent'} → ${verdict}`);
}

/**
 * Caught is exit 1 (a broken contract, or a regression against the baseline); green is exit 0.
 * A mutation that loses answers is judged by the verdicts: target unavailable is honest for a
 * replay whose answer never came (exit 3, or 1 as a regression against the baseline), FAILED is not.
 */
export function outcomeOf(
  mutation: Pick<Mutation, 'harmful' | 'kind'>,
  exitCode: number,
  totals?: RunReport['totals'],
): Outcome {
  if (isLostKind(mutation.kind) && totals) {
    if (totals.failed > 0) return 'false alarm';
    if (totals.targetUnavailable > 0) return 'unavailable';
  }
  if (exitCode === 1) return mutation.harmful ? 'caught' : 'false alarm';
  if (exitCode === 0) return mutation.harmful ? 'missed' : 'green';
  return 'neither';
}

/**
 * Runs every mutation against its own stand-in, `concurrency` at a time, after one unaltered run
 * per version scope: the reference for what changed, and the baseline when the verifier takes one.
 */
export async function runMutations(
  mutations: readonly Mutation[],
  options: HarnessOptions & {
    concurrency: number;
    onResult?: (result: MutationResult, done: number) => void;
  },
): Promise<{ results: MutationResult[]; unaltered: Record<string, StandInRun>; baseline: boolean }> {
  const baseline = verifierTakesBaseline();
  const scopes = [...new Set(mutations.map((mutation) => mutation.scope.version))];
  const unaltered: Record<string, StandInRun> = {};
  for (const version of scopes) unaltered[version] = await verifyStandIn(undefined, { ...options, version });

  const results: MutationResult[] = new Array(mutations.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let index = next++; index < mutations.length; index = next++) {
      const mutation = mutations[index] as Mutation;
      const reference = unaltered[mutation.scope.version];
      const started = process.hrtime.bigint();
      const run = await verifyStandIn(mutation, {
        ...options,
        version: mutation.scope.version,
        ...(baseline && reference ? { baseline: reference.reportFile } : {}),
      });
      const result: MutationResult = {
        name: mutation.name,
        kind: mutation.kind,
        harmful: mutation.harmful,
        outcome: outcomeOf(mutation, run.exitCode, run.report?.totals),
        exitCode: run.exitCode,
        totals: run.report?.totals,
        changed: changedVerdicts(reference?.report, run.report),
        leftOpen: run.leftOpen > 0,
        ledgerKept: run.ledgerKept,
        unsaid: run.leftOpen > (run.report?.teardown.open ?? 0),
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      };
      results[index] = result;
      options.onResult?.(result, ++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return { results, unaltered, baseline };
}
