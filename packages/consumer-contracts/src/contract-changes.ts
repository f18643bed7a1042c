import { canonicalJson, isJsonObject } from '@print-contracts/client/kit';
import { asPact, type PactFile } from './pact-files.js';

/** One difference between the committed contracts and the ones the suite generated. */
export interface ContractChange {
  /** File name inside `contracts/`. */
  file: string;
  kind:
    | 'file-added'
    | 'file-removed'
    | 'interaction-added'
    | 'interaction-removed'
    | 'interaction-changed'
    | 'pact-changed'
    | 'file-changed';
  /** The interaction's description, for the interaction kinds. */
  description?: string;
  /** Which parts of a changed interaction differ (`request.headers`, `response.body`, …). */
  parts?: string[];
}

/**
 * What differs between the committed contracts and the generated ones, file by file and,
 * inside a pact file, interaction by interaction (by description), so a stale contract
 * names the interaction that changed.
 */
export function diffContracts(
  committed: ReadonlyMap<string, string>,
  generated: ReadonlyMap<string, string>,
): ContractChange[] {
  const changes: ContractChange[] = [];
  const names = [...new Set([...committed.keys(), ...generated.keys()])].sort();
  for (const file of names) {
    const before = committed.get(file);
    const after = generated.get(file);
    if (before === after) continue;
    if (before === undefined) changes.push({ file, kind: 'file-added' });
    else if (after === undefined) changes.push({ file, kind: 'file-removed' });
    else if (file.endsWith('.json')) changes.push(...diffPact(file, before, after));
    else changes.push({ file, kind: 'file-changed' });
  }
  return changes;
}

function diffPact(file: string, before: string, after: string): ContractChange[] {
  let old: PactFile;
  try {
    old = asPact(JSON.parse(before), `committed ${file}`);
  } catch {
    return [{ file, kind: 'file-changed' }];
  }
  const current = asPact(JSON.parse(after), `generated ${file}`);
  const oldByDescription = new Map(
    old.interactions.map((interaction) => [interaction.description, interaction]),
  );
  const newDescriptions = new Set(current.interactions.map((interaction) => interaction.description));
  const changes: ContractChange[] = [];
  for (const interaction of current.interactions) {
    const { description } = interaction;
    const previous = oldByDescription.get(description);
    const parts = previous && changedParts(previous, interaction);
    if (!parts) changes.push({ file, kind: 'interaction-added', description });
    else if (parts.length > 0) changes.push({ file, kind: 'interaction-changed', description, parts });
  }
  for (const description of oldByDescription.keys()) {
    if (!newDescriptions.has(description)) changes.push({ file, kind: 'interaction-removed', description });
  }
  const { interactions: _old, ...oldRest } = old;
  const { interactions: _new, ...newRest } = current;
  if (canonicalJson(oldRest) !== canonicalJson(newRest)) changes.push({ file, kind: 'pact-changed' });
  if (changes.length === 0) changes.push({ file, kind: 'file-changed' });
  return changes;
}

/** The keys whose values differ, sorted; inside `request` and `response`, their parts (`request.path`). */
function changedParts(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  prefix = '',
): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((key) => {
    const [a, b] = [before[key], after[key]];
    if (canonicalJson(a) === canonicalJson(b)) return [];
    if (!prefix && (key === 'request' || key === 'response') && isJsonObject(a) && isJsonObject(b)) {
      return changedParts(a, b, `${key}.`);
    }
    return [`${prefix}${key}`];
  });
}

/** What each kind of change says about its file. */
const SAYS: Readonly<Record<ContractChange['kind'], (change: ContractChange) => string>> = {
  'file-added': () => 'new file, not committed yet',
  'file-removed': () => 'committed, but the suite no longer generates it',
  'interaction-added': (change) => `interaction "${change.description}" is new`,
  'interaction-removed': (change) => `interaction "${change.description}" is gone`,
  'interaction-changed': (change) =>
    `interaction "${change.description}" changed (${change.parts?.join(', ')})`,
  'pact-changed': () => 'participants or metadata changed',
  'file-changed': () => 'content changed',
};

/** The changes as lines a person can act on, one per change. */
export function formatChanges(changes: readonly ContractChange[]): string {
  return changes.map((change) => `contracts/${change.file}: ${SAYS[change.kind](change)}`).join('\n');
}
