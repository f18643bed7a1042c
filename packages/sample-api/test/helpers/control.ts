import type { ControlState } from '../../src/index.js';
import type { RawAnswer, TestApi } from './sample-api.js';

/** Puts an order into `state` through the control surface (no credentials needed). */
export function setState(
  t: TestApi,
  ref: string | number,
  state: ControlState | string,
  extra: object = {},
): Promise<RawAnswer> {
  return t.raw({
    method: 'POST',
    path: `/__control/orders/${ref}/state`,
    credentials: false,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state, ...extra }),
  });
}

/** What the control surface knows about an order. */
export async function inspect(t: TestApi, ref: string | number): Promise<Record<string, unknown>> {
  const answer = await t.raw({ path: `/__control/orders/${ref}`, credentials: false });
  return answer.json as Record<string, unknown>;
}
