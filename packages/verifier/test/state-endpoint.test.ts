import { describe, expect, it } from 'vitest';
import { type SequenceItem, StateSequence } from '../src/replay/proxy/state-endpoint.js';

const item = (
  id: string,
  states: SequenceItem['states'],
  values: SequenceItem['values'] = [],
  refusal?: string,
): SequenceItem => ({
  id,
  description: `interaction ${id}`,
  states,
  values,
  refusal,
});

const ITEMS = [
  item('list', []),
  item('get', [{ name: 'an order exists', params: {} }], [{ id: 42, uuid: 'u-42' }]),
  item('unknown', [{ name: 'no order exists with id {id}', params: { id: 987654321 } }], [{}]),
];

describe('the state sequence', () => {
  it('hands each interaction the values of its own states, in pact order', () => {
    const sequence = new StateSequence(ITEMS);
    expect(sequence.setup('', {})).toMatchObject({ status: 200, values: {} });
    expect(sequence.setup('an order exists', {})).toMatchObject({
      status: 200,
      values: { id: 42, uuid: 'u-42' },
    });
    expect(sequence.current?.id).toBe('get');
    expect(sequence.setup('no order exists with id {id}', { id: 987654321 }).status).toBe(200);
    expect(sequence.broken).toBeUndefined();
  });

  it('refuses the state call of an interaction kept back with a 4xx, which Pact does not retry', () => {
    const sequence = new StateSequence([
      item('kept', [{ name: 'an order exists', params: {} }], [], 'not verifiable here: no control'),
    ]);
    expect(sequence.setup('an order exists', {})).toMatchObject({
      status: 422,
      message: 'not verifiable here: no control',
    });
  });

  it('stops loudly when a call does not match what it expects, instead of guessing', () => {
    const sequence = new StateSequence(ITEMS);
    sequence.setup('', {});
    expect(sequence.setup('no order exists with id {id}', { id: 1 }).status).toBe(409);
    expect(sequence.broken).toMatch(/out of step/);
    expect(sequence.setup('an order exists', {}).status).toBe(409);
    expect(sequence.current).toBeUndefined();
  });
});
