import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operations } from '@print-contracts/client';
import {
  ContractPact,
  EXAMPLE_ORDER,
  generateContracts,
  injectedOrderPath,
  ORDER_DETAIL,
  PROVIDER_STATES,
  successStatus,
} from '@print-contracts/consumer-contracts';

export interface SyntheticOptions {
  /**
   * Interactions per pact file written: pact-js rewrites the file after every interaction,
   * so a file costs time quadratic in its size. The suite keeps one file per test file.
   */
  perFile: number;
  /** Files written at once, as vitest runs test files on several workers. */
  concurrency: number;
}

/**
 * Runs `count` synthetic v2 interactions through the consumer suite's own machinery (the
 * real client on Pact's mock server, one ContractPact per chunk of 100), merges the chunks
 * the way `pnpm contracts` does, and writes the contracts into `outDir`. Every interaction
 * reads an order by an injected id, so a verifier can arrange them all with one order.
 * Resolves to the seconds it took.
 */
export async function writeSyntheticContracts(
  count: number,
  outDir: string,
  { perFile, concurrency }: SyntheticOptions = { perFile: 10, concurrency: 2 },
): Promise<number> {
  const pactDir = await mkdtemp(join(tmpdir(), 'bench-synthetic-pacts-'));
  const started = process.hrtime.bigint();
  try {
    const { getOrder } = operations;
    const files = Math.ceil(count / perFile);
    let next = 0;
    const writeFileOfInteractions = async (file: number) => {
      const pact = new ContractPact('v2', { dir: join(pactDir, `file-${file}`) });
      for (let n = file * perFile; n < Math.min(count, (file + 1) * perFile); n++) {
        await pact
          .addInteraction()
          .given(PROVIDER_STATES.orderExists.name)
          .uponReceiving(`synthetic read ${String(n).padStart(5, '0')}`)
          .withRequest(getOrder.method, injectedOrderPath(getOrder, 'id', EXAMPLE_ORDER.id), (request) =>
            request.headers(pact.requestHeaders()),
          )
          .willRespondWith(successStatus(200), (response) => response.jsonBody(ORDER_DETAIL))
          .executeTest(pact.withClient((client) => client.getOrder(EXAMPLE_ORDER.id)));
      }
    };
    const worker = async () => {
      while (next < files) await writeFileOfInteractions(next++);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const contracts = generateContracts(pactDir);
    await mkdir(outDir, { recursive: true });
    for (const [name, content] of contracts) await writeFile(join(outDir, name), content);
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await rm(pactDir, { recursive: true, force: true });
  }
}
