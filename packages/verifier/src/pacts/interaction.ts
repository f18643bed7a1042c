import type { ApiVersion } from '@print-contracts/client';
import { z } from 'zod';

/** One provider state of an interaction, as the pact names it. */
export interface StateRef {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** One HTTP interaction of a pact, with what the plan needs to know of its request. */
export type PactInteraction = z.output<typeof interactionSchema> & {
  /** Position in its pact file: Pact replays in this order. */
  readonly index: number;
  /** The interaction exactly as in the file, copied into the files Pact replays. */
  readonly raw: Readonly<Record<string, unknown>>;
};

export type PactSource =
  | { readonly kind: 'file'; readonly path: string }
  | {
      readonly kind: 'broker';
      readonly url: string;
      readonly pending: boolean;
      /** Why the broker picked it (`latest from main`): what tells two pacts of one consumer apart, night after night. */
      readonly picked?: string | undefined;
    };

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

// The part of a pact the plan reads, so that it rests on a well-formed pact (Pact reads the
// file again for the replay) and a malformed one gets a one-line reason.
const participantSchema = z.object({ name: z.string().min(1, 'must name the participant') });

export const pactSchema = z.object({
  consumer: participantSchema,
  provider: participantSchema,
  interactions: z.array(z.unknown()),
  metadata: z
    .object({
      pactSpecification: z.object({ version: z.string() }).optional(),
      'pact-specification': z.object({ version: z.string() }).optional(),
    })
    .optional(),
});

/** V4 writes header and query values as lists; V3 headers are single strings, a V3 query one string. */
const headersSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const querySchema = z.record(z.string(), z.union([z.string(), z.array(z.string().nullable())]));

/** One interaction, read into what the plan needs to know of it (its place in the file aside). */
export const interactionSchema = z
  .object({
    type: z.string().optional(),
    key: z.string().optional(),
    description: z.string().min(1, 'must describe the interaction'),
    providerState: z.string().optional(),
    providerStates: z
      .array(z.object({ name: z.string(), params: z.record(z.string(), z.unknown()).nullish() }))
      .nullish(),
    request: z.object({
      method: z.string().min(1, 'must be an HTTP method'),
      path: z.string().startsWith('/', 'must start with /'),
      query: z.union([querySchema, z.string()]).nullish(),
      headers: headersSchema.nullish(),
      body: z.unknown().optional(),
      generators: z.record(z.string(), z.unknown()).nullish(),
    }),
    response: z.object({
      status: z.number().int().min(100).max(599),
      matchingRules: z.record(z.string(), z.unknown()).nullish(),
    }),
    pending: z.boolean().optional(),
  })
  .transform(
    ({ type, key, description, providerState, providerStates, request, response, pending }, context) => {
      if (type !== undefined && type !== 'Synchronous/HTTP') {
        const message = `("${description}") is a ${type} interaction; the kit replays HTTP interactions only`;
        context.issues.push({ code: 'custom', message, input: type });
        return z.NEVER;
      }
      const pathGenerator = request.generators?.path as { type?: unknown; expression?: unknown } | undefined;
      return {
        key,
        description,
        states: providerStates?.length
          ? providerStates.map((state) => ({ name: state.name, params: state.params ?? {} }))
          : providerState
            ? [{ name: providerState, params: {} }]
            : [],
        method: request.method.toUpperCase(),
        // As written (the consumer's example when injected); the expression: `/api/orders/${id}`.
        path: request.path,
        pathExpression:
          pathGenerator?.type === 'ProviderState' && typeof pathGenerator.expression === 'string'
            ? pathGenerator.expression
            : undefined,
        query: queryOf(request.query),
        // Names lower-cased.
        headers: Object.fromEntries(
          Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), [value].flat()]),
        ),
        // Parsed as JSON; undefined without a body, a string when not JSON.
        body: bodyOf(request.body),
        // Names the request takes from provider states (`${id}`, `${uuid}`).
        injected: [...new Set(injectedNames(request.generators))],
        // Whether the contract expects the request to succeed (2xx) or to be refused (4xx, 5xx).
        expects: expectation(response.status, response.matchingRules?.status),
        // V4's pending interaction: its failure is reported, and fails no run.
        pending: pending === true,
      };
    },
  );

function queryOf(query: string | z.infer<typeof querySchema> | null | undefined): Record<string, string[]> {
  if (typeof query === 'string') {
    const params = new URLSearchParams(query);
    return Object.fromEntries([...params.keys()].map((key) => [key, params.getAll(key)]));
  }
  return Object.fromEntries(
    Object.entries(query ?? {}).map(([key, value]) => [
      key,
      [value].flat().filter((item): item is string => typeof item === 'string'),
    ]),
  );
}

/** V4 wraps the body as `{content, contentType, encoded}`, JSON or base64 text; V3 writes it as is. */
function bodyOf(body: unknown): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body) || !('content' in body)) return body;
  const { content, encoded } = body as { content: unknown; encoded?: unknown };
  const text =
    encoded === 'base64' && typeof content === 'string'
      ? Buffer.from(content, 'base64').toString('utf8')
      : content;
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Success or refusal, from the status or its class rule (`matchStatus`). */
function expectation(status: number, statusRules: unknown): 'success' | 'refusal' {
  const rules = statusRules as { $?: { matchers?: { status?: unknown }[] } } | undefined;
  const statusClass = rules?.$?.matchers?.find((matcher) => typeof matcher.status === 'string')?.status;
  if (typeof statusClass !== 'string') return status >= 400 ? 'refusal' : 'success';
  return ['clientError', 'serverError', 'error'].includes(statusClass) ? 'refusal' : 'success';
}

/** Every `${name}` a ProviderState generator of the request refers to, wherever it sits. */
function injectedNames(node: unknown): string[] {
  if (node === null || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  const own =
    record.type === 'ProviderState' && typeof record.expression === 'string'
      ? [...record.expression.matchAll(/\$\{([^}]+)\}/g)].map((match) => match[1] as string)
      : [];
  return [...own, ...Object.values(record).flatMap((child) => injectedNames(child))];
}
