import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The floors of the package graph: a runtime dependency points only down. The client at the
 * bottom; the simulator and the consumer suite on it; the verifier above them; the tools on top.
 * `test-support` is for the kit's own tests: never a runtime dependency.
 */
const FLOORS: Readonly<Record<string, number>> = {
  '@print-contracts/client': 0,
  '@print-contracts/sample-api': 1,
  '@print-contracts/consumer-contracts': 1,
  '@print-contracts/verifier': 2,
  '@print-contracts/broker': 3,
  '@print-contracts/openapi': 3,
  '@print-contracts/bench': 3,
};
const TEST_ONLY = new Set(['@print-contracts/test-support']);

/** Packages a user runs, whose production install must hold no tool. */
const RUN_TIME = ['@print-contracts/client', '@print-contracts/sample-api', '@print-contracts/verifier'];

/** Tools: run by a person or CI, never needed to run the client, the simulator or the verifier. */
const TOOLS = ['@redocly/cli', '@pact-foundation/pact-cli', '@pactflow/openapi-pact-comparator'];

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

const root = new URL('..', import.meta.url).pathname;
const manifests: Manifest[] = [
  // Only package folders: the packaging test's deploy can leave a stray folder here meanwhile.
  ...readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json'))),
  join(root, 'bench'),
].map((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest);
const byName = new Map(manifests.map((manifest) => [manifest.name, manifest]));

/** What a production install of the package brings: dependencies, optional and peer ones. */
const runtimeDependencies = (manifest: Manifest): string[] => [
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.optionalDependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
];

/** The package's runtime dependencies, through the workspace packages it depends on. */
function installed(name: string, seen = new Set<string>()): Set<string> {
  for (const dependency of runtimeDependencies(byName.get(name) ?? { name })) {
    if (seen.has(dependency)) continue;
    seen.add(dependency);
    if (byName.has(dependency)) installed(dependency, seen);
  }
  return seen;
}

describe('the workspace package graph', () => {
  it('gives every workspace package a floor', () => {
    const unplaced = manifests
      .map(({ name }) => name)
      .filter((name) => !(name in FLOORS || TEST_ONLY.has(name)));
    expect(unplaced).toEqual([]);
  });

  it('has every runtime dependency between workspace packages point to a lower floor', () => {
    const upward = manifests.flatMap((manifest) =>
      runtimeDependencies(manifest)
        .filter((dependency) => byName.has(dependency))
        .filter(
          (dependency) =>
            TEST_ONLY.has(dependency) || !((FLOORS[dependency] ?? 0) < (FLOORS[manifest.name] ?? 0)),
        )
        .map((dependency) => `${manifest.name} → ${dependency}`),
    );
    expect(upward).toEqual([]);
  });

  it.each(RUN_TIME)('%s needs no tool at run time, directly or through a workspace package', (name) => {
    const tools = [...installed(name)].filter((dependency) => TOOLS.includes(dependency));
    expect(tools).toEqual([]);
  });
});
