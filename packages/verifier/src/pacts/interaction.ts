import type { ApiVersion } from '@print-contracts/client';

/** One provider state of an interaction, as the pact names it. */
export interface StateRef {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** One HTTP interaction of a pact, with what the plan needs to know of its request. */
export interface PactInteraction {
  /** Position in its pact file: Pact replays in this order. */
  readonly index: number;
  readonly key: string | undefined;
  readonly description: string;
  readonly states: readonly StateRef[];
  readonly method: string; // upper case
  /** As written in the pact (the consumer's example when injected); `pathExpression`: `/api/orders/${id}`. */
  readonly path: string;
  readonly pathExpression: string | undefined;
  readonly query: Readonly<Record<string, readonly string[]>>;
  readonly headers: Readonly<Record<string, readonly string[]>>; // names lower-cased
  /** The request body parsed as JSON; `undefined` without a body, a string when not JSON. */
  readonly body: unknown;
  /** Names the request takes from provider states (`${id}`, `${uuid}`). */
  readonly injected: readonly string[];
  /** Whether the contract expects the request to succeed (2xx) or to be refused (4xx, 5xx). */
  readonly expects: 'success' | 'refusal';
  /** The interaction exactly as in the file, copied into the files Pact replays. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export type PactSource =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'broker'; readonly url: string; readonly pending: boolean };

/** A pact file, read and checked. */
export interface LoadedPact {
  readonly label: string; // a relative path or a URL
  readonly source: PactSource;
  readonly consumer: string;
  readonly provider: string;
  readonly version: ApiVersion;
  readonly interactions: readonly PactInteraction[];
  /** The whole pact document, from which the files Pact replays are cut. */
  readonly document: Readonly<Record<string, unknown>>;
}

/** `GET /api/orders/${id}`: the request as a reader wants to see it. */
export const requestLine = (interaction: PactInteraction) =>
  `${interaction.method} ${interaction.pathExpression ?? interaction.path}`;

/** `an order exists; no order exists with id 42`. */
export const stateLine = (interaction: PactInteraction) => interaction.states.map(stateLabel).join('; ');

/** The state's name with its parameters filled in: `no order exists with id 42`. */
export function stateLabel(state: StateRef): string {
  return state.name.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in state.params ? String(state.params[name]) : whole,
  );
}
