import { startSampleApi } from '@print-contracts/sample-api';
import type { BenchRow } from './results.js';
import { runSoak } from './soak.js';
import { round } from './stats.js';

/** Peak memory the soak may reach (client and server in one process); the short form in the tests holds it too. */
const MEMORY_BOUND_MIB = 512;

/** The soak in its long form: many clients through the whole order life, every order accounted for. */
export async function benchSoak(orders: number, clients: number): Promise<BenchRow[]> {
  const api = await startSampleApi({ processingDelayMs: 5 });
  try {
    const [credentials] = api.credentials;
    if (!credentials) throw new Error('the sample API has no credentials');
    const result = await runSoak({ baseUrl: api.url, credentials, clients, orders });
    const mib = result.peakRssBytes / 1024 / 1024;
    return [
      {
        area: 'reliability',
        what: `soak: ${clients} clients, ${orders} orders created → read → updated → listed → cancelled`,
        unit: 'req/s',
        value: round(result.requests / result.seconds, 0),
        budget: `no failure, every order accounted for, peak RSS < ${MEMORY_BOUND_MIB} MiB`,
        met:
          result.failures.length === 0 &&
          result.accountedFor === result.created &&
          result.created === orders &&
          mib < MEMORY_BOUND_MIB,
        note: `${result.requests} requests, ${result.failures.length} failures, ${result.accountedFor}/${result.created} orders accounted for, peak RSS ${round(mib, 0)} MiB (client and server in one process)`,
      },
    ];
  } finally {
    await api.close();
  }
}
