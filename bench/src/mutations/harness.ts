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
  /**
   * In the nightly configuration, for a harmful mutation the run did not catch: the interactions
   * it changes when the control surface is declared that are not verified without one (a state
   * only the control surface makes). None left: a false green.
   */
  readonly unobservable?: readonly string[];
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
  /**
   * Whether the runs declare the stand-in's control surface (default true). Without it, a run is
   * the nightly job's: a sample-data set as the vendor gives it, where the sample-data probe may
   * excuse what the target answers whatever it is asked, and the baseline tells what regressed.
   */
  readonly control?: boolean;
}

/**
 * `--request-timeout` of a run (and its cleanup) behind a vendor that holds connections open in
 * silence or trickles answers: each such request costs that long, where the default 10 s would
 * make a run minutes long.
 */
const HELD_REQUEST_TIMEOUT_MS = 3_000;

/** The flags a run and its cleanup take for `mutation`, beyond the harness's own. */
export const flagsOf = (mutation: Mutation | undefined): string[] =>
  mutation?.kind === 'silent-answer' || mutation?.kind === 'trickled-answer'
    ? ['--request-timeout', String(HELD_REQUEST_TIMEOUT_MS)]
    : [];

let runs = 0;
/** How long the stand-in takes to process an order (the sample API's default). */
const PROCESSING_MS = 50;

/** A fresh sample API behind the mutation's altering proxy, with what a run needs to reach it. */
export interface StandIn {
  readonly api: SampleApi;
  /** The proxy's base URL: the run's `--base-url`. */
  readonly url: string;
  /** The demo credential sets, as the verifier reads them from the environment. */
  readonly env: Record<string, string | undefined>;
  /** Orders open at the sample API before the run that were not before it (read past the proxy). */
  readonly openSince: () => Promise<number>;
}

/**
 * Starts a fresh sample API with `extraOrders` more orders per credential set, behind the altering
 * proxy of `mutation` (none for the unaltered stand-in), for `use`; both closed after.
 */
export async function withStandIn<T>(
  mutation: Mutation | undefined,
  extraOrders: number,
  use: (standIn: StandIn) => Promise<T>,
): Promise<T> {
  const api = await startSampleApi({
    control: true,
    processingDelayMs: PROCESSING_MS,
    ...(mutation?.kind === 'latency' ? { faults: [{ latencyMs: mutation.latencyMs }] } : {}),
  });
  try {
    await addOrders(api, extraOrders);
    const openBefore = new Set(await openOrders(api));
    const proxy = await startAlteringProxy(api.origin, mutation ? alterationOf(mutation, api.origin) : {});
    const [main, other] = api.credentials;
    const env = {
      [ENV.userId]: main?.userId,
      [ENV.secret]: main?.secret,
      [OTHER_USER_ID_ENV]: other?.userId,
      [OTHER_SECRET_ENV]: other?.secret,
    };
    const openSince = async () => {
      // An order lists once processed: one the run created at its very end is counted too.
      await sleep(2 * PROCESSING_MS);
      return (await openOrders(api)).filter((order) => !openBefore.has(order)).length;
    };
    try {
      return await use({ api, url: `${proxy.origin}/api`, env, openSince });
    } finally {
      await proxy.close();
    }
  } finally {
    await api.close();
  }
}

/** A scratch folder of its own below `work`, for one run's reports and ledger. */
export async function runFolder(work: string): Promise<string> {
  const dir = join(work, `run-${++runs}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * `pnpm verify --base-url … --mode sample --control` in-process against a fresh sample API
 * behind the mutation's altering proxy (none for the unaltered stand-in), one version when the
 * mutation is scoped to one.
 */
export function verifyStandIn(
  mutation: Mutation | undefined,
  options: HarnessOptions & { version: ApiVersion | 'any'; baseline?: string },
): Promise<StandInRun> {
  return withStandIn(mutation, options.extraOrders ?? EXTRA_ORDERS, async ({ url, env, openSince }) => {
    const dir = await runFolder(options.work);
    const { io } = captureIo({ cwd: dir, env });
    const exitCode = await runVerify(
      [
        ...[
          '--base-url',
          url,
          '--mode',
          'sample',
          ...(options.control === false ? [] : ['--control']),
          '--quiet',
        ],
        ...['--pact', options.pacts, '--report-dir', dir, '--ledger', join(dir, 'ledger.jsonl')],
        // The sample API processes an order in 50 ms: poll it as the embedded run does.
        ...['--poll-interval', '50', '--creation-timeout', String(options.creationTimeoutMs ?? 30_000)],
        ...(options.version === 'any' ? [] : ['--api-version', options.version]),
        ...(options.baseline ? ['--baseline', options.baseline] : []),
        ...flagsOf(mutation),
      ],
      io,
    );
    const reportFile = join(dir, REPORT_FILES.json);
    const report = await readFile(reportFile, 'utf8').then(
      (text) => JSON.parse(text) as RunReport,
      () => undefined,
    );
    const ledgerKept = await exists(join(dir, 'ledger.jsonl'));
    return { exitCode, leftOpen: await openSince(), ledgerKept, report, reportFile };
  });
}

/** Whether a file is there (a ledger a run or a cleanup left). */
export const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

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

/** `user:id` of every order each credential set of the sample API holds open. */
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

  let done = 0;
  const results = await inPool(mutations, options.concurrency, async (mutation) => {
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
    options.onResult?.(result, ++done);
    return result;
  });
  return { results, unaltered, baseline };
}

/**
 * `nightly` (runs without `--control`) with each harmful mutation it did not catch told apart: the
 * interactions the same mutation changed with the control surface (`withControl`) that the unaltered
 * run without it (`unaltered`, by version scope) did not verify. Those only a control surface makes
 * observable; a mutation with none of them is a false green.
 */
export function withUnobservable(
  nightly: readonly MutationResult[],
  withControl: readonly MutationResult[],
  unaltered: Readonly<Record<string, StandInRun>>,
  scopes: Readonly<Record<string, string>>,
): MutationResult[] {
  const changedWithControl = new Map(withControl.map((result) => [result.name, result.changed]));
  return nightly.map((result) => {
    if (!result.harmful || result.outcome !== 'missed') return result;
    const baseline = verdicts(unaltered[scopes[result.name] ?? 'any']?.report);
    const unobservable = (changedWithControl.get(result.name) ?? [])
      .map((change) => change.slice(0, change.indexOf(': ')))
      .filter((key) => baseline.get(key) !== 'verified');
    return { ...result, unobservable };
  });
}

/** `each` of `items`, `concurrency` at a time; the results in the items' order. */
export async function inPool<T, R>(
  items: readonly T[],
  concurrency: number,
  each: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) {
      results[index] = await each(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return results;
}
