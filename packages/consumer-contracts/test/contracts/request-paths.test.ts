import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_BASE_PATH, isHttpError, operations } from '@print-contracts/client';
import { PROVIDER_STATES } from '@print-contracts/client/kit';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractPact } from '../../src/contract-pact.js';
import { EXAMPLE_ORDER } from '../../src/fixtures/examples.js';
import { ORDER_DETAIL } from '../../src/fixtures/responses.js';
import {
  documentedStatus,
  injectedOrderPath,
  orNull,
  patternSource,
  present,
  successStatus,
} from '../../src/matchers.js';

const scratch = mkdtempSync(join(tmpdir(), 'request-paths-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('injectedOrderPath', () => {
  it('pins the path shape with a regex and lets the verifier fill in the id', () => {
    expect(injectedOrderPath(operations.getOrder, 'id', EXAMPLE_ORDER.id)).toEqual({
      'pact:matcher:type': 'regex',
      regex: `^${API_BASE_PATH}/orders/[1-9][0-9]*$`,
      value: `${API_BASE_PATH}/orders/${EXAMPLE_ORDER.id}`,
      'pact:generator:type': 'ProviderState',
      expression: `${API_BASE_PATH}/orders/\${id}`,
    });
  });

  it('refuses an example that is not a path of that kind', () => {
    expect(() => injectedOrderPath(operations.getOrder, 'id', EXAMPLE_ORDER.uuid)).toThrow(TypeError);
  });

  it('fails the interaction of a client that calls another path', async () => {
    // The client gets an answer (the mock server's 500), so do not wait long for a match that never comes.
    const pact = new ContractPact('v2', { dir: scratch, bookkeepingTimeoutMs: 50 });
    const run = pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request for an order by its numeric id')
      .withRequest('GET', injectedOrderPath(operations.getOrder, 'id', EXAMPLE_ORDER.id), (request) =>
        request.headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) => response.jsonBody(ORDER_DETAIL))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client.getOrder(EXAMPLE_ORDER.uuid).catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(500);
        }),
      );
    await expect(run).rejects.toThrow(/expected but not received/);
  });
});

describe('the matchers', () => {
  it('write a case-insensitive pattern with an inline flag Pact reads', () => {
    expect(patternSource(/fail/i)).toBe('(?i)fail');
    expect(() => patternSource(/fail/g)).toThrow(TypeError);
  });

  it('pin only the statuses the operations table documents', () => {
    expect(documentedStatus(operations.cancelOrder, 500)).toBe(500);
    expect(() => documentedStatus(operations.listOrders, 404)).toThrow(TypeError);
  });

  it('write "this pattern or null" as one regex rule that accepts both and nothing else', () => {
    const rule = orNull(/^[a-f]+$/, 'abc');
    expect(rule).toEqual({ 'pact:matcher:type': 'regex', regex: '(?:^[a-f]+$)|^null$', value: 'abc' });
    const regex = new RegExp(String(rule.regex));
    // Pact reads a null as its JSON text.
    expect(['abc', String(null)].map((text) => regex.test(text))).toEqual([true, true]);
    expect(['xyz', '', 'nullish'].map((text) => regex.test(text))).toEqual([false, false, false]);
    expect(() => orNull(/^[a-f]+$/, 'xyz')).toThrow(TypeError);
    expect(present(null)).toMatchObject({ 'pact:matcher:type': 'regex', value: null });
  });
});
