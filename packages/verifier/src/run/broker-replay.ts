import type { Plan, PlannedInteraction } from '../plan/plan.js';
import type { Shard } from '../replay/shard.js';

/** Characters the Rust `regex` crate treats as syntax. */
const REGEX_META = /[\\.+*?()|[\]{}^$#&\-~]/g;

const escapeRegex = (text: string) => text.replace(REGEX_META, (char) => `\\${char}`);

/**
 * Shards for publishing verification results: one per broker pact, holding every
 * interaction whose description the filter lets through, in file order. Pact must fetch
 * the pact from the broker itself to publish, so the run cannot cut a file of its own;
 * instead it filters by description. An interaction the plan keeps back that shares a
 * description with a replayed one is refused at its state call, never sent to the target.
 */
export function publishShards(plan: Plan): Shard[] {
  const shards: Shard[] = [];
  for (const pact of plan.pacts) {
    const mine = plan.interactions.filter((item) => item.pact === pact);
    const replayed = new Set(
      mine.filter((item) => item.status === 'replay').map((item) => item.interaction.description),
    );
    if (replayed.size === 0) continue;
    const interactions: PlannedInteraction[] = mine.filter((item) =>
      replayed.has(item.interaction.description),
    );
    shards.push({ id: shards.length, kind: 'publish', pact, phase: 'arranged', interactions });
  }
  return shards;
}

/** An anchored regular expression matching exactly the shard's descriptions. */
export function describeFilter(shard: Shard): string {
  const descriptions = [...new Set(shard.interactions.map((item) => item.interaction.description))];
  return `^(?:${descriptions.map(escapeRegex).join('|')})$`;
}
