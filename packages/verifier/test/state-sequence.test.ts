import { describe, expect, it } from 'vitest';
import type { FixtureResult } from '../src/arrange/fixture-result.js';
import { parsePact } from '../src/pacts/load-pacts.js';
import { planRun } from '../src/plan/plan.js';
import type { ReplayItem } from '../src/replay/replay-item.js';
import { StateSequence } from '../src/replay/state-sequence.js';
import { fixtureInteractions, fixturePact } from './helpers/fixture-pact.js';

function items(results: Record<string, FixtureResult>): ReplayItem[] {
  const [list, get, , , , , , , unknown] = fixtureInteractions('v1');
  const pact = parsePact(JSON.stringify(fixturePact('v1', [list, get, unknown] as never)), 'p.json', {
    kind: 'file',
    path: 'p.json',
  });
  const plan = planRun([pact], { mode: 'sample', capabilities: { control: true, otherCredentials: true } });
  return plan.interactions.map((planned) => ({
    planned,
    states: planned.fixtures.map((fixture) => (fixture ? results[fixture.state] : undefined)),
    record: { started: false, refused: undefined, exchanges: [] },
  }));
}

const ready: FixtureResult = { ok: true, values: { id: 42, uuid: 'u-42' }, ms: 1 };

describe('the state sequence', () => {
  it('hands each interaction the values of its own states, in pact order', () => {
    const sequence = new StateSequence(
      items({ 'an order exists': ready, 'no order exists with id {id}': ready }),
    );
    expect(sequence.setup('', {})).toMatchObject({ status: 200, values: {} });
    expect(sequence.setup('an order exists', {})).toMatchObject({
      status: 200,
      values: { id: 42, uuid: 'u-42' },
    });
    expect(sequence.current?.planned.interaction.description).toBe('a request for an order by id');
    expect(sequence.setup('no order exists with id {id}', { id: 987654321 }).status).toBe(200);
  });

  it('fails an interaction whose state could not be arranged with a 4xx, which Pact does not retry', () => {
    const failed: FixtureResult = {
      ok: false,
      verdict: 'failed',
      reason: 'state "an order exists" could not be arranged: boom',
      ms: 1,
    };
    const all = items({ 'an order exists': failed, 'no order exists with id {id}': ready });
    const sequence = new StateSequence(all);
    sequence.setup('', {});
    expect(sequence.setup('an order exists', {})).toMatchObject({ status: 422, message: failed.reason });
    expect(all[1]?.record.refused).toBe(failed);
  });

  it('stops loudly when a call does not match what it expects, instead of guessing', () => {
    const sequence = new StateSequence(
      items({ 'an order exists': ready, 'no order exists with id {id}': ready }),
    );
    sequence.setup('', {});
    const answer = sequence.setup('no order exists with id {id}', { id: 987654321 });
    expect(answer.status).toBe(409);
    expect(sequence.broken).toMatch(/went out of step: expected "an order exists"/);
    expect(sequence.setup('an order exists', {}).status).toBe(409);
  });
});
