import { DEMO_CREDENTIALS, startSampleApi } from '@print-contracts/sample-api';
import type { BenchRow } from './results.js';
import { runSoak, type SoakResult } from './soak.js';
import { round } from './stats.js';

/** The soak in its long form: many clients through the whole order life, every order accounted for. */
export async function benchSoak(
  orders: number,
  clients: number,
): Promise<{ rows: BenchRow[]; result: SoakResult }> {
  const api = await startSampleApi({ processingDelayMs: 5 });
  try {
    const [credentials = DEMO_CREDENTIALS[0]] = api.credentials;
    if (!credentials) throw new Error('the sample API has no credentials');
    const result = await runSoak({ baseUrl: api.url, credentials, clients, orders });
    const mib = result.peakRssBytes / 1024 / 1024;
    return {
      result,
      rows: [
        {
          area: 'reliability',
          what: `soak: ${clients} clients, ${orders} orders created → read → updated → listed → cancelled`,
          unit: 'req/s',
          value: round(result.requests / result.seconds, 0),
          budget: 'no failure, every order accounted for, memory bounded',
          met:
            result.failures.length === 0 &&
            result.accountedFor === result.created &&
            result.created === orders,
          note: `${result.requests} requests, ${result.failures.length} failures, ${result.accountedFor}/${result.created} orders accounted for, peak RSS ${round(mib, 0)} MiB (client and server in one process)`,
        },
      ],
    };
  } finally {
    await api.close();
  }
}
