import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { OrdersClient } from '@print-contracts/client';
import { DEMO_CREDENTIALS } from '@print-contracts/sample-api';
import autocannon from 'autocannon';
import { spawnTracked } from './processes.js';
import type { BenchRow } from './results.js';
import { median, round } from './stats.js';

const SERVE = fileURLToPath(new URL('./serve.js', import.meta.url));

async function spawnServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawnTracked(process.execPath, [SERVE, ...args], { stderr: 'inherit' });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    lines.close();
    return { url: (JSON.parse(line) as { url: string }).url, child };
  }
  throw new Error(`benchmark server ${args[0]} exited before printing its URL`);
}

async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  if (child.exitCode === null) await once(child, 'exit');
}

async function load(url: string, headers: Record<string, string>, seconds: number) {
  const result = await autocannon({ url, connections: 16, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`load on ${url} got ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const ms = (value: number) => (value < 1 ? '< 1 ms' : `${value} ms`);

/** The sample API's GET /orders/{id} and GET /orders against a bare node:http server sending the same bytes. */
export async function benchSampleApiThroughput(runs: number, seconds: number): Promise<BenchRow[]> {
  const [credentials] = DEMO_CREDENTIALS;
  if (!credentials) throw new Error('the sample API has no demo credentials');
  const headers = {
    'User-ID': credentials.userId,
    'API-Secret': credentials.secret,
    Accept: 'application/vnd.printdeal-api.v2',
  };
  const sample = await spawnServer(['sample-api']);
  const dir = await mkdtemp(join(tmpdir(), 'bench-bodies-'));
  let bare: { url: string; child: ChildProcess } | undefined;
  try {
    const client = new OrdersClient({ baseUrl: sample.url, ...credentials });
    const { orders } = await client.listOrders();
    const id = orders[0]?.id;
    if (id === undefined) throw new Error('the sample API has no seed orders to read');
    await client.close();
    const paths = { detail: `/api/orders/${id}`, list: '/api/orders' };
    const bodies: Record<string, string> = {};
    for (const path of Object.values(paths)) {
      const response = await fetch(new URL(path, sample.url), { headers });
      bodies[path] = await response.text();
    }
    const bodyFile = join(dir, 'bodies.json');
    await writeFile(bodyFile, JSON.stringify(bodies));
    bare = await spawnServer(['bare', bodyFile]);
    const origin = (url: string) => new URL(url).origin;

    const rows: BenchRow[] = [];
    for (const [name, path] of Object.entries(paths)) {
      await load(`${origin(sample.url)}${path}`, headers, 1); // warm-up
      await load(`${origin(bare.url)}${path}`, headers, 1);
      const subject: { rps: number; p99: number }[] = [];
      const reference: { rps: number; p99: number }[] = [];
      for (let i = 0; i < runs; i++) {
        reference.push(await load(`${origin(bare.url)}${path}`, headers, seconds));
        subject.push(await load(`${origin(sample.url)}${path}`, headers, seconds));
      }
      const rps = median(subject.map((r) => r.rps));
      const refRps = median(reference.map((r) => r.rps));
      const p99 = median(subject.map((r) => r.p99));
      rows.push({
        area: 'sample API',
        what: `GET ${name === 'detail' ? '/orders/{id}' : '/orders'} (autocannon, 16 connections)`,
        unit: 'req/s',
        value: round(rps, 0),
        reference: { what: 'bare node:http sending the same bytes', value: round(refRps, 0) },
        ratio: round(rps / refRps),
        budget: '≥ 0.5× reference, p99 < 5 ms',
        met: rps / refRps >= 0.5 && p99 < 5,
        note: `median of ${runs} rounds of ${seconds} s each, alternating with the reference; p99 ${ms(p99)} (reference ${ms(median(reference.map((r) => r.p99)))}); autocannon counts whole milliseconds`,
      });
    }
    return rows;
  } finally {
    await stop(sample.child);
    if (bare) await stop(bare.child);
    await rm(dir, { recursive: true, force: true });
  }
}
