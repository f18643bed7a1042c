import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadedPact } from '../pacts/interaction.js';
import type { PlannedInteraction } from '../plan/plan.js';

/** At most this many interactions per pact file Pact replays: its cost per interaction grows with the file's size (50 measured best on synthetic pacts of 1,000). */
export const SHARD_SIZE = 50;

/** A slice of one pact that one run of Pact's verifier replays, in this order. */
export interface Shard {
  readonly id: number;
  /**
   * `file`: Pact replays a pact file the run writes with just these interactions.
   * `publish`: Pact fetches the pact from the broker itself (so it can publish the results),
   * filtered by description to these interactions.
   */
  readonly kind: 'file' | 'publish';
  readonly pact: LoadedPact;
  readonly phase: PlannedInteraction['phase'];
  readonly interactions: readonly PlannedInteraction[];
}

/**
 * Groups the interactions to replay into shards: per pact and phase (`early` ones do not
 * wait for arranged orders), at most `SHARD_SIZE` each. Pact's verifier copies the whole
 * pact for every interaction it verifies, so one big file costs quadratic time; shards of fifty
 * keep the replay linear in the number of interactions.
 */
export function makeShards(planned: readonly PlannedInteraction[], size = SHARD_SIZE): Shard[] {
  const groups = new Map<string, PlannedInteraction[]>();
  for (const item of planned) {
    if (item.status !== 'replay') continue;
    const key = `${item.pact.label}|${item.phase}`;
    const group = groups.get(key) ?? [];
    group.push(item);
    groups.set(key, group);
  }
  const shards: Shard[] = [];
  for (const group of groups.values()) {
    for (let start = 0; start < group.length; start += size) {
      const slice = group.slice(start, start + size);
      const first = slice[0] as PlannedInteraction;
      shards.push({
        id: shards.length,
        kind: 'file',
        pact: first.pact,
        phase: first.phase,
        interactions: slice,
      });
    }
  }
  // Early shards first: they start while orders are still being created.
  return shards.sort((a, b) => (a.phase === b.phase ? a.id - b.id : a.phase === 'early' ? -1 : 1));
}

/** Writes the shard as a pact file (the pact's own document, with just these interactions). */
export async function writeShardFile(shard: Shard, dir: string): Promise<string> {
  const file = join(dir, `shard-${shard.id}.json`);
  const document = {
    ...shard.pact.document,
    interactions: shard.interactions.map((item) => item.interaction.raw),
  };
  await writeFile(file, JSON.stringify(document));
  return file;
}
