import { ORDER_STATUSES, type OrderStatus } from '@print-contracts/client';
import { PROVIDER_STATES, type ProviderStateName } from '@print-contracts/client/kit';
import type { CreatedSpec, FixtureSpec, ListedWant } from './fixture-spec.js';
import type { NotVerifiableCode } from './not-verifiable.js';

/** What the target offers beyond its public API; `mutates`: anything but a GET needs an order of its own. */
interface ArrangeContext {
  readonly control: boolean;
  readonly otherCredentials: boolean;
  readonly mutates: boolean;
}

/** A target property of the closed list, and what the state needed of it. */
interface Unreachable {
  readonly code: NotVerifiableCode;
  readonly why: string;
}

/** The fixture to build, or why this target cannot reach the state, or why the contract is wrong. */
type ArrangerResult =
  | { readonly spec: FixtureSpec; readonly unreachable?: undefined; readonly invalid?: undefined }
  | { readonly unreachable: Unreachable; readonly spec?: undefined; readonly invalid?: undefined }
  | { readonly invalid: string; readonly spec?: undefined; readonly unreachable?: undefined };

type Arranger = (params: Readonly<Record<string, unknown>>, context: ArrangeContext) => ArrangerResult;

const NEEDS_CONTROL: Unreachable = {
  code: 'no-control-surface',
  why: 'needs the sample API control surface to reach this state, and this target has none (see --control)',
};
const NEEDS_OTHER_CREDENTIALS: Unreachable = {
  code: 'no-second-credential-set',
  why: 'needs a second credential set (PRINT_API_OTHER_USER_ID and PRINT_API_OTHER_SECRET), and none is configured',
};

const created = (then: CreatedSpec['after'] = 'nothing', extra: Partial<CreatedSpec> = {}): CreatedSpec => ({
  kind: 'created',
  credential: 'main',
  product: 'fixture',
  after: then,
  ...extra,
});

/** A read-only request takes a listed order when one fits, else `orElse`; a mutating one always `orElse`. */
function listedOr(
  want: ListedWant,
  context: ArrangeContext,
  orElse: CreatedSpec | undefined,
  orElseWhy: string,
  extra: { credential?: 'main' | 'other'; needsUuid?: boolean } = {},
): ArrangerResult {
  if (context.mutates) {
    return orElse ? { spec: orElse } : { unreachable: { code: 'no-listed-order', why: orElseWhy } };
  }
  return {
    spec: {
      kind: 'listed',
      credential: extra.credential ?? 'main',
      want,
      needsUuid: extra.needsUuid ?? false,
      orElse,
      orElseWhy,
    },
  };
}

/** Orders get each status this way; `unknown` only from a list that shows one. */
function ordersWithStatus(status: string, context: ArrangeContext): ArrangerResult {
  if (!(ORDER_STATUSES as readonly string[]).includes(status)) {
    return { invalid: `"${status}" is not an order status (${ORDER_STATUSES.join(', ')})` };
  }
  const orElse: Record<OrderStatus, CreatedSpec | undefined> = {
    'in-progress': created('nothing', { expectStatus: 'in-progress' }),
    cancelled: created('cancel', { expectStatus: 'cancelled' }),
    completed: context.control ? created('completed', { expectStatus: 'completed' }) : undefined,
    unknown: undefined,
  };
  const why =
    status === 'completed'
      ? `lists no completed order, and ${NEEDS_CONTROL.why}`
      : `lists no order with status "${status}", and no public or control route gives one that status`;
  return listedOr(
    { kind: 'status', status: status as OrderStatus },
    context,
    orElse[status as OrderStatus],
    why,
  );
}

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

/**
 * One arranger per provider state, keyed by its exact name, each reaching its state the least
 * costly way the target allows: a listed order for a read-only request, else one the run
 * creates, the control surface where only it can, or a second credential set.
 */
export const STATE_ARRANGERS: Readonly<Record<ProviderStateName, Arranger>> = {
  [PROVIDER_STATES.orderExists.name]: (_params, context) =>
    listedOr({ kind: 'any' }, context, created(), 'cannot happen: an order can always be created', {
      needsUuid: true,
    }),
  [PROVIDER_STATES.orderInProductionExists.name]: (_params, context) =>
    context.control ? { spec: created('in-production') } : { unreachable: NEEDS_CONTROL },
  [PROVIDER_STATES.shippedOrderExists.name]: (_params, context) =>
    listedOr(
      { kind: 'shipped' },
      context,
      context.control ? created('shipped') : undefined,
      `lists no order with a shipped line, and ${NEEDS_CONTROL.why}`,
    ),
  [PROVIDER_STATES.discountedOrderExists.name]: (_params, context) =>
    listedOr(
      { kind: 'discounted' },
      context,
      undefined,
      'lists no order with a customer discount, and no public or control route gives one',
    ),
  [PROVIDER_STATES.orderCreationFailed.name]: () => ({ spec: created('nothing', { product: 'unknown' }) }),
  [PROVIDER_STATES.noOrderWithId.name]: (params) => {
    const id = params.id;
    return typeof id === 'string' || typeof id === 'number'
      ? { spec: { kind: 'no-order', id: String(id) } }
      : { invalid: 'the state needs an id parameter' };
  },
  [PROVIDER_STATES.ordersWithStatusExist.name]: (params, context) =>
    typeof params.status === 'string'
      ? ordersWithStatus(params.status, context)
      : { invalid: 'the state needs a status parameter' },
  [PROVIDER_STATES.fewerOrdersThanOffset.name]: (params) => {
    const offset = wholeNumber(params.offset);
    return offset === undefined
      ? { invalid: 'the state needs a whole-number offset parameter' }
      : { spec: { kind: 'fewer-orders', offset } };
  },
  [PROVIDER_STATES.otherCredentialSetOrderExists.name]: (_params, context) =>
    context.otherCredentials
      ? listedOr({ kind: 'any' }, context, created('nothing', { credential: 'other' }), '', {
          credential: 'other',
          needsUuid: true,
        })
      : { unreachable: NEEDS_OTHER_CREDENTIALS },
};

export const arrangerFor = (name: string): Arranger | undefined =>
  Object.hasOwn(STATE_ARRANGERS, name) ? STATE_ARRANGERS[name as ProviderStateName] : undefined;
