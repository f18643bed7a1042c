import { describe, expect, it } from 'vitest';
import { parseStateChange } from '../src/kit.js';

describe('parseStateChange', () => {
  it.each([
    [
      'a setup with params',
      { state: 'an order exists', params: { status: 'shipped' }, action: 'setup' },
      { state: 'an order exists', params: { status: 'shipped' }, action: 'setup' },
    ],
    [
      'a teardown',
      { state: 'an order exists', action: 'teardown' },
      { state: 'an order exists', params: {}, action: 'teardown' },
    ],
    [
      'a call without an action, as a setup',
      { state: 'an order exists' },
      { state: 'an order exists', params: {}, action: 'setup' },
    ],
    ['null params, as none', { state: '', params: null }, { state: '', params: {}, action: 'setup' }],
    [
      "a Ruby-era verifier's one-item states list",
      { states: ['an order exists'] },
      { state: 'an order exists', params: {}, action: 'setup' },
    ],
  ])('reads %s', (_, body, request) => {
    expect(parseStateChange(body)).toEqual({ ok: true, request });
  });

  it.each([
    ['no state', {}, 'state'],
    ['an unknown action', { state: 'x', action: 'reset' }, 'action'],
    ['params that are not an object', { state: 'x', params: [1] }, 'params'],
    ['two states in one call', { states: ['a', 'b'] }, 'states'],
    ['a body that is not an object', 'setup', ''],
  ])('refuses %s, naming the field', (_, body, path) => {
    const parsed = parseStateChange(body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((issue) => issue.path)).toContain(path);
  });
});
