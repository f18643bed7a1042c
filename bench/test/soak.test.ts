import { startSampleApi } from '@print-contracts/sample-api';
import { describe, expect, it } from 'vitest';
import { runSoak } from '../src/soak.js';

describe('the soak (short form)', () => {
  it('creates, reads, updates and cancels orders concurrently with no failure and every order accounted for', async () => {
    const api = await startSampleApi({ processingDelayMs: 5 });
    try {
      const [credentials] = api.credentials;
      if (!credentials) throw new Error('the sample API started without credentials');
      const result = await runSoak({ baseUrl: api.url, credentials, clients: 16, orders: 200 });
      expect(result.failures).toEqual([]);
      expect(result.created).toBe(200);
      expect(result.accountedFor).toBe(200);
      // Bounded memory: 200 orders through their life must not cost the process more than this.
      expect(result.peakRssBytes).toBeLessThan(512 * 1024 * 1024);
    } finally {
      await api.close();
    }
  }, 60_000);
});
