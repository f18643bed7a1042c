import { API_VERSIONS } from '@print-contracts/client';
import { describe, expect, it } from 'vitest';
import { documentName } from '../src/document/build-document.js';
import { generateOpenApiDocuments, OPENAPI_DIR, readOpenApiFiles } from '../src/output/files.js';

const changed = (committed: ReadonlyMap<string, string>, generated: ReadonlyMap<string, string>) =>
  [...new Set([...committed.keys(), ...generated.keys()])].filter(
    (name) => committed.get(name) !== generated.get(name),
  );

describe('the committed contracts/openapi/', () => {
  const committed = readOpenApiFiles(OPENAPI_DIR);

  it('holds exactly what the generator writes (run pnpm contracts after changing the client)', () => {
    const stale = changed(committed, generateOpenApiDocuments());
    if (stale.length > 0)
      console.error(`contracts/openapi/ is stale; run pnpm contracts: ${stale.join(', ')}`);
    expect(stale).toEqual([]);
  });

  it('holds one document per API version', () => {
    expect([...committed.keys()]).toEqual(API_VERSIONS.map((version) => `${documentName(version)}.json`));
  });
});
