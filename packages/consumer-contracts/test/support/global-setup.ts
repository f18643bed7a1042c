import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import './provided-context.js';

/**
 * Tells the tests whether this run updates the committed contracts (`--update`, the
 * snapshot flag), and removes the run's pact directory when vitest closes.
 */
export default function setup(project: TestProject) {
  const update = project.config.snapshotOptions.updateSnapshot === 'all';
  project.provide('updateContracts', update);
  const { pactDir } = project.config.provide;
  return () => {
    if (pactDir) rmSync(pactDir, { recursive: true, force: true });
  };
}
