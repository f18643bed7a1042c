import { copyFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { workspace } from '@print-contracts/test-support';
import { describe, expect, it } from 'vitest';
import { loadPactFiles, parsePact } from '../src/pacts/load-pacts.js';
import { type PlanOptions, planRun } from '../src/plan/plan.js';
import {
  fixtureInteractions,
  fixturePact,
  testOrderBody,
  writeFixturePacts,
} from './helpers/fixture-pact.js';

const pact = (interactions = fixtureInteractions('v1')) =>
  parsePact(JSON.stringify(fixturePact('v1', interactions)), 'plan.json', {
    kind: 'file',
    path: 'plan.json',
  });

const everything: PlanOptions = { mode: 'sample', control: true, otherCredentials: true };

const byDescription = (plan: ReturnType<typeof planRun>) =>
  Object.fromEntries(plan.interactions.map((item) => [item.interaction.description, item]));

describe('the plan', () => {
  it('replays everything on a target with a control surface and a second credential set', () => {
    const plan = planRun([pact()], everything);
    expect(plan.interactions.map((item) => item.decided)).toEqual(plan.interactions.map(() => undefined));
  });

  it('shares one fixture among read-only interactions, taken from the list, and gives each mutating one its own order', () => {
    const items = byDescription(planRun([pact()], everything));
    const fixture = (description: string) => items[description]?.fixtures[0];
    expect(fixture('a request for an order by id')?.key).toBe(fixture('a request for an order by uuid')?.key);
    expect(fixture('a request for an order by id')?.spec).toMatchObject({
      kind: 'listed',
      want: { kind: 'any' },
    });
    expect(fixture('a request to cancel an order')?.spec).toMatchObject({
      kind: 'created',
      after: 'nothing',
    });
    expect(fixture('a request to cancel an order')?.key).not.toBe(
      fixture('a request for an order by id')?.key,
    );
  });

  it('marks states the target cannot reach as not verifiable here, with the reason', () => {
    const items = byDescription(
      planRun([pact()], { mode: 'sample', control: false, otherCredentials: false }),
    );
    expect(items['a request to cancel an order in production']?.decided).toEqual({
      verdict: 'not-verifiable',
      reason: expect.stringMatching(/control surface/),
      code: 'no-control-surface',
    });
    expect(items["a request for another credential set's order"]?.decided).toEqual({
      verdict: 'not-verifiable',
      reason: expect.stringMatching(/PRINT_API_OTHER_USER_ID/),
      code: 'no-second-credential-set',
    });
  });

  it('tells requests sent with the real credentials from those refused on purpose', () => {
    const items = byDescription(planRun([pact()], everything));
    expect(items['a request for the first page of orders']?.credentials).toBe('real');
    expect(items['a request with a wrong secret']?.credentials).toBe('refused');
  });

  it.each([
    ['/api/orders', 'as the pact suite writes it'],
    ['/api/orders/', 'with a trailing slash'],
    ['/api//orders', 'with a doubled slash'],
    ['/API/%6Frders', 'in capitals and percent-encoded'],
    ['/api/x/../orders', 'through a dot segment'],
  ])(
    'keeps a non-test create back in live mode when its path is %s (%s), and replays a test order',
    (path) => {
      const create = fixtureInteractions('v1').find(
        (item) => item.description === 'a request to create a test order',
      ) as Record<string, unknown>;
      const request = create.request as { body: object };
      const live = {
        ...create,
        description: 'a request to create an order',
        request: { ...request, path, body: { ...request.body, content: testOrderBody('v1', false) } },
      };
      const plan = planRun([pact([create, live])], { mode: 'live', control: false, otherCredentials: false });
      expect(plan.interactions.map((item) => item.decided?.verdict)).toEqual([undefined, 'not-verifiable']);
      expect(plan.interactions.map((item) => item.creates)).toEqual([true, true]);
    },
  );

  it('keeps back in live mode a change of an order no state of the run provides', () => {
    const [, , , , cancel] = fixtureInteractions('v1') as Record<string, unknown>[];
    const literal = {
      ...cancel,
      providerStates: [],
      request: { ...(cancel?.request as object), path: '/api/orders/42', generators: undefined },
    };
    const plan = planRun([pact([literal])], { mode: 'live', control: false, otherCredentials: false });
    expect(plan.interactions[0]?.decided).toEqual({
      verdict: 'not-verifiable',
      reason: expect.stringMatching(/did not create/),
      code: 'live-safety',
    });
  });

  it('keeps back in live mode a change on a path the operations table does not describe', () => {
    const [, , , , cancel] = fixtureInteractions('v1') as Record<string, unknown>[];
    const unknown = {
      ...cancel,
      providerStates: [],
      request: {
        ...(cancel?.request as object),
        method: 'POST',
        path: '/api/orders/42/cancel',
        generators: undefined,
      },
    };
    const plan = planRun([pact([unknown])], { mode: 'live', control: false, otherCredentials: false });
    expect(plan.interactions[0]?.decided).toEqual({
      verdict: 'not-verifiable',
      reason: expect.stringMatching(/POST on a path the API does not describe/),
      code: 'live-safety',
    });
  });

  it('fails an interaction whose request injects a value none of its states provides', () => {
    const [, get] = fixtureInteractions('v1');
    const plan = planRun([pact([{ ...get, providerStates: [] }])], everything);
    expect(plan.interactions[0]?.decided).toEqual({
      verdict: 'failed',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the reason quotes Pact's own placeholder
      reason: 'the request injects ${id}, which none of its provider states provides',
    });
  });

  it('counts the orders the run may create, for "fewer than N orders exist"', () => {
    const plan = planRun([pact()], everything);
    // The cancel's own order, the one in production, the failed one, and the listed order's fallback
    // for the reads; the replayed create; never the other credential set's.
    expect(plan.plannedCreates).toBe(5);
  });
});

describe('loadPactFiles', () => {
  it('reads a pact named twice once: by a folder and a link to it, or as a copy; another pact for the same provider stays', async () => {
    const space = await workspace();
    try {
      const dir = await writeFixturePacts(space.path('pacts'));
      const files = (await readdir(dir)).sort().map((name) => join(dir, name));
      await symlink(dir, space.path('linked'));
      await copyFile(files[0] ?? '', space.path('copy-of-v1.json'));
      const fewer = fixturePact('v1', fixtureInteractions('v1').slice(0, 2));
      await writeFile(space.path('older-v1.json'), JSON.stringify(fewer));

      const loaded = await loadPactFiles(['pacts', 'linked', 'copy-of-v1.json', 'pacts'], space.dir);
      expect(loaded.map((pact) => pact.version)).toEqual(['v1', 'v2']);
      expect(loaded.map((pact) => pact.label)).toEqual(files.map((file) => relative(space.dir, file)));

      const withOlder = await loadPactFiles(['pacts', 'older-v1.json'], space.dir);
      expect(withOlder.map((pact) => [pact.version, pact.interactions.length])).toEqual([
        ['v1', fixtureInteractions('v1').length],
        ['v2', fixtureInteractions('v2').length],
        ['v1', 2],
      ]);
    } finally {
      await space.remove();
    }
  });
});
