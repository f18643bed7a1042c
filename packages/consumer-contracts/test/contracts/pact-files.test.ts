import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPactOutputError } from '../../src/errors/index.js';
import { collectPacts, normalisePact, type PactFile, serialisePact } from '../../src/pact-files.js';

const root = mkdtempSync(join(tmpdir(), 'pact-files-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const interaction = (description: string, status = 200) => ({
  description,
  type: 'Synchronous/HTTP',
  request: { method: 'GET', path: '/api/orders' },
  response: { status },
});

const pact = (interactions: unknown[], provider = 'print-order-api-v1'): PactFile =>
  ({
    consumer: { name: 'print-order-client' },
    provider: { name: provider },
    interactions,
    metadata: { pactSpecification: { version: '4.0' } },
  }) as PactFile;

/** Writes fragments (subdirectory → pact) into a fresh directory and returns it. */
function fragments(files: Record<string, PactFile>): string {
  const dir = mkdtempSync(join(root, 'run-'));
  for (const [sub, content] of Object.entries(files)) {
    mkdirSync(join(dir, sub));
    writeFileSync(join(dir, sub, 'pact.json'), JSON.stringify(content));
  }
  return dir;
}

describe('collectPacts', () => {
  it('merges the fragments of one pact into one, sorted by description, whatever the run order', () => {
    const first = fragments({
      a: pact([interaction('b request'), interaction('d request')]),
      b: pact([interaction('c request'), interaction('a request')]),
    });
    const second = fragments({
      a: pact([interaction('c request'), interaction('a request')]),
      b: pact([interaction('d request'), interaction('b request')]),
    });
    const merged = collectPacts(first).get('pact.json') as PactFile;
    expect(merged.interactions.map((each) => each.description)).toEqual([
      'a request',
      'b request',
      'c request',
      'd request',
    ]);
    expect(serialisePact(merged)).toBe(serialisePact(collectPacts(second).get('pact.json') as PactFile));
  });

  it('refuses two interactions with one description', () => {
    const dir = fragments({ a: pact([interaction('same')]), b: pact([interaction('same', 404)]) });
    expect(() => collectPacts(dir)).toThrowError(
      expect.objectContaining({ code: 'ERR_CONTRACTS_PACT_OUTPUT' }),
    );
  });

  it('refuses two interactions with one description inside a single fragment', () => {
    const dir = fragments({ a: pact([interaction('same'), interaction('same', 404)]) });
    expect(() => collectPacts(dir)).toThrowError(
      expect.objectContaining({ code: 'ERR_CONTRACTS_PACT_OUTPUT' }),
    );
  });

  it('refuses fragments of one file that name different providers', () => {
    const dir = fragments({ a: pact([interaction('one')]), b: pact([interaction('two')], 'someone-else') });
    let caught: unknown;
    try {
      collectPacts(dir);
    } catch (error) {
      caught = error;
    }
    expect(isPactOutputError(caught)).toBe(true);
  });
});

describe('normalisePact', () => {
  const withRules = (matchingRules: unknown) =>
    pact([{ ...interaction('one'), response: { status: 200, matchingRules } }]);

  it('leaves every rule list as Pact wrote it, a rule beside null included', () => {
    const written = {
      body: {
        '$.reference': { combine: 'AND', matchers: [{ match: 'type' }, { match: 'null' }] },
        '$.lines': {
          combine: 'AND',
          matchers: [
            { match: 'type', min: 1 },
            { match: 'regex', regex: '^a$' },
          ],
        },
      },
    };
    const normal = normalisePact(withRules(written));
    expect(normal.interactions[0]?.response.matchingRules).toEqual(written);
  });

  it('sorts interactions by description and changes nothing else in them', () => {
    const [two, one] = [interaction('two'), interaction('one')];
    const normal = normalisePact(pact([two, one]));
    expect(normal.interactions).toEqual([one, two]);
  });

  it('writes the same bytes for the same pact with its keys in another order', () => {
    const one = pact([interaction('one')]);
    const { metadata, ...rest } = one;
    const reordered = { metadata, ...rest } as PactFile;
    expect(Object.keys(reordered)).not.toEqual(Object.keys(one));
    expect(serialisePact(normalisePact(reordered))).toBe(serialisePact(normalisePact(one)));
  });
});
