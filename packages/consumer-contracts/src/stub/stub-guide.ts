import { DEFAULT_VERSION_HEADER, SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import type { PactFile, PactInteraction } from '../pact-files.js';
// The stub server's regular expressions (Rust's `regex`) take the same escapes.
import { escapeRegExp } from '../rule-values.js';

/**
 * The state-header value that leaves only the interactions without a provider state (the stub
 * runs with `--empty-provider-state`, and `^$` matches no state's name).
 */
export const NO_STATE_SELECTOR = '^$';

/**
 * One HTTP interaction the stub serves: the table's row and the front's reference alike. How
 * it is reached on `pnpm stub`, and what it answers.
 */
export interface StubRoute {
  /** The pact's provider, e.g. `print-order-api-v2`. */
  readonly provider: string;
  readonly interaction: PactInteraction;
  readonly description: string;
  readonly method: string;
  /** The contract's example path with its query, e.g. `/api/orders?limit=10&offset=10`. */
  readonly target: string;
  /** Whether the request carries a body (the contract's example body picks among interactions). */
  readonly hasBody: boolean;
  /** What sets the request's headers apart from the usual credentials and version header. */
  readonly headerNotes: readonly string[];
  /** The interaction's provider states, by name. */
  readonly states: readonly string[];
  /** What to send in the state header to get this interaction: a state's name, or `^$`. */
  readonly stateHeader: string;
  readonly status: number;
  /** The status class the contract pins, when it pins only the class (`4xx`). */
  readonly statusClass: string | undefined;
  /** The answer's body, shortened for a table; empty when it has none. */
  readonly answer: string;
}

const STATUS_CLASSES: Readonly<Record<string, string>> = {
  information: '1xx',
  success: '2xx',
  redirect: '3xx',
  clientError: '4xx',
  serverError: '5xx',
  error: '4xx or 5xx',
};

const stateNames = (interaction: PactInteraction) =>
  (interaction.providerStates ?? []).map((state) => state.name);
const httpInteractions = (pact: PactFile) =>
  pact.interactions.filter((interaction) => interaction.type === 'Synchronous/HTTP');
/** The states of the HTTP interactions that `keep` keeps, each once, sorted. */
const statesOf = (pacts: Iterable<PactFile>, keep: (interaction: PactInteraction) => boolean) =>
  [...new Set([...pacts].flatMap(httpInteractions).filter(keep).flatMap(stateNames))].sort();

/** A regular expression (Rust and JavaScript syntax alike) matching exactly one of `names`. */
export const statesSelector = (names: readonly string[]): string =>
  `^(?:${names.map(escapeRegExp).join('|')})$`;

/**
 * The states the stub assumes when a request names none: every state of an interaction that
 * answers 2xx. With them (and the interactions without a state) a request gets the happy path;
 * the refusals (unknown order, order in production, …) need their state named.
 */
export const defaultStates = (pacts: Iterable<PactFile>): string[] =>
  statesOf(pacts, ({ response }) => response.status >= 200 && response.status < 300);

/** How to reach every HTTP interaction of `pacts` on the stub, in the pacts' order. */
export const stubRoutes = (pacts: Iterable<PactFile>): StubRoute[] =>
  [...pacts].flatMap((pact) =>
    httpInteractions(pact).map((interaction) => routeOf(pact.provider.name, interaction)),
  );

function routeOf(provider: string, interaction: PactInteraction): StubRoute {
  const { request, response } = interaction;
  const states = stateNames(interaction);
  return {
    provider,
    interaction,
    description: interaction.description,
    method: request.method.toUpperCase(),
    target: request.path + queryString(request.query),
    hasBody: request.body?.content !== undefined,
    headerNotes: headerNotes(interaction),
    states,
    stateHeader: states[0] ?? NO_STATE_SELECTOR,
    status: response.status,
    statusClass: statusClass(response.matchingRules),
    answer: summarise(response.body?.content),
  };
}

function queryString(query: Record<string, string[]> | undefined): string {
  const pairs = Object.entries(query ?? {}).flatMap(([key, values]) =>
    values.map((value) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`),
  );
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

/** Header facts a caller must reproduce: missing credentials or version header, a pinned secret. */
function headerNotes(interaction: PactInteraction): string[] {
  const headers = interaction.request.headers ?? {};
  const find = (name: string) =>
    Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase());
  const rules = (interaction.request.matchingRules?.header ?? {}) as Record<string, unknown>;
  const hasRule = (name: string) =>
    Object.keys(rules).some((key) => key.toLowerCase() === name.toLowerCase());
  const notes: string[] = [];
  const credentials = [USER_ID_HEADER, SECRET_HEADER];
  const missing = credentials.filter((name) => !find(name));
  if (missing.length === credentials.length) notes.push('no credentials');
  else for (const name of missing) notes.push(`no ${name}`);
  for (const name of credentials) {
    const found = find(name);
    if (found && !hasRule(name)) notes.push(`\`${found[0]}: ${found[1].join(', ')}\``);
  }
  if (!find(DEFAULT_VERSION_HEADER.name)) notes.push('no version header');
  return notes;
}

function statusClass(rules: Record<string, unknown> | undefined): string | undefined {
  const status = (rules?.status as { $?: { matchers?: Array<Record<string, unknown>> } } | undefined)?.$;
  const matcher = status?.matchers?.find((m) => m.match === 'statusCode');
  return typeof matcher?.status === 'string' ? STATUS_CLASSES[matcher.status] : undefined;
}

/** A short form of a body: small ones as written, a message as written, larger ones by their keys. */
function summarise(content: unknown): string {
  if (content === undefined) return '';
  const json = JSON.stringify(content);
  if (json.length <= 48) return json;
  if (content && typeof content === 'object' && !Array.isArray(content)) {
    const record = content as Record<string, unknown>;
    if (typeof record.message === 'string') return JSON.stringify({ message: record.message });
    const keys = Object.keys(record);
    return `{${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
  }
  return Array.isArray(content) ? `[${content.length} items]` : `${json.slice(0, 45)}…`;
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const versionOf = (provider: string) => /-(v\d+)$/.exec(provider)?.[1] ?? provider;

/**
 * The Markdown table of `routes`: for each interaction the request, the state header that
 * picks it, and the answer; interactions reached the same way in several versions share a
 * row. The root README holds it, and `pnpm stub --table` prints it.
 */
export function renderStubTable(routes: readonly StubRoute[]): string {
  const rows = new Map<string, { route: StubRoute; versions: string[] }>();
  for (const route of routes) {
    const key = JSON.stringify({ ...route, provider: undefined, interaction: undefined });
    const row = rows.get(key);
    if (row) row.versions.push(versionOf(route.provider));
    else rows.set(key, { route, versions: [versionOf(route.provider)] });
  }
  const lines = [
    '| interaction | request | `X-Provider-State` | answer | versions |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const { route, versions } of rows.values()) {
    const request = [
      `\`${route.method} ${route.target}\`${route.hasBody ? ' with its body' : ''}`,
      ...route.headerNotes,
    ].join(', ');
    const status = route.statusClass ? `${route.status} (any ${route.statusClass})` : String(route.status);
    const answer = route.answer ? `${status} \`${route.answer}\`` : status;
    lines.push(
      `| ${cell(route.description)} | ${cell(request)} | \`${cell(route.stateHeader)}\` | ${cell(answer)} | ${versions.join(', ')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
