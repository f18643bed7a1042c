import { describe, expect, it } from 'vitest';
import { diffContracts, formatChanges } from '../../src/contract-changes.js';

const pactText = (interactions: Array<{ description: string; status: number; path?: string }>) =>
  JSON.stringify({
    consumer: { name: 'print-order-client' },
    provider: { name: 'print-order-api-v2' },
    metadata: {},
    interactions: interactions.map(({ description, status, path = '/api/orders' }) => ({
      description,
      type: 'Synchronous/HTTP',
      request: { method: 'GET', path },
      response: { status },
    })),
  });

const FILE = 'print-order-client-print-order-api-v2.json';

describe('diffContracts', () => {
  it('finds nothing when the committed files are what was generated', () => {
    const files = new Map([[FILE, pactText([{ description: 'a request', status: 200 }])]]);
    expect(diffContracts(files, new Map(files))).toEqual([]);
  });

  it('names the interaction that changed, and which part of it', () => {
    const committed = new Map([[FILE, pactText([{ description: 'a request for an order', status: 200 }])]]);
    const generated = new Map([
      [FILE, pactText([{ description: 'a request for an order', status: 200, path: '/api/orders/1' }])],
    ]);
    const changes = diffContracts(committed, generated);
    expect(changes).toEqual([
      {
        file: FILE,
        kind: 'interaction-changed',
        description: 'a request for an order',
        parts: ['request.path'],
      },
    ]);
    expect(formatChanges(changes)).toBe(
      `contracts/${FILE}: interaction "a request for an order" changed (request.path)`,
    );
  });

  it('names interactions that are new or gone, and files nobody generates any more', () => {
    const committed = new Map([
      [FILE, pactText([{ description: 'old', status: 200 }])],
      ['retired.json', pactText([])],
    ]);
    const generated = new Map([[FILE, pactText([{ description: 'new', status: 200 }])]]);
    expect(diffContracts(committed, generated)).toEqual([
      { file: FILE, kind: 'interaction-added', description: 'new' },
      { file: FILE, kind: 'interaction-removed', description: 'old' },
      { file: 'retired.json', kind: 'file-removed' },
    ]);
  });

  it('reports a README that differs from the generated one', () => {
    const changes = diffContracts(new Map([['README.md', 'old\n']]), new Map([['README.md', 'new\n']]));
    expect(changes).toEqual([{ file: 'README.md', kind: 'file-changed' }]);
  });
});
