import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { API_VERSIONS, formatPath } from '@print-contracts/client';
import { providerName } from '@print-contracts/consumer-contracts/vocabulary';
import { PactFileError } from '../errors/pact-file-error.js';
import type { LoadedPact, PactInteraction, PactSource } from './interaction.js';
import { interactionSchema, pactSchema, type RawInteraction } from './pact-schema.js';

/**
 * Reads every pact named by `paths` (files, or folders of `*.json` pacts) in a stable order. A
 * missing, unreadable or malformed file is a one-line `PactFileError`: the run does not start.
 */
export async function loadPactFiles(paths: readonly string[], cwd: string): Promise<LoadedPact[]> {
  const files: string[] = [];
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    const info = await stat(absolute).catch(() => undefined);
    if (info === undefined) throw new PactFileError(given, 'no such file or folder');
    if (!info.isDirectory()) {
      files.push(absolute);
      continue;
    }
    const names = (await readdir(absolute)).filter((name) => name.endsWith('.json')).sort();
    if (names.length === 0) {
      throw new PactFileError(given, 'holds no pact files (*.json); write them with `pnpm contracts`');
    }
    files.push(...names.map((name) => join(absolute, name)));
  }
  return Promise.all(
    [...new Set(files)].map(async (file) => {
      const near = relative(cwd, file);
      const label = near && !near.startsWith('..') ? near : file;
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new PactFileError(label, `cannot be read (${error.code ?? 'error'})`);
      });
      return parsePact(text, label, { kind: 'file', path: file });
    }),
  );
}

/** Parses and checks one pact document; `label` names it in every error. */
export function parsePact(text: string, label: string, source: PactSource): LoadedPact {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PactFileError(label, 'is not valid JSON');
  }
  const parsed = pactSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? formatPath(issue.path) : '';
    throw new PactFileError(
      label,
      `is not a pact: ${where ? `${where} ` : ''}${issue?.message ?? 'invalid'}`,
    );
  }
  const pact = parsed.data;
  const version = API_VERSIONS.find((v) => providerName(v) === pact.provider.name);
  if (version === undefined) {
    const expected = API_VERSIONS.map((v) => providerName(v)).join(' or ');
    throw new PactFileError(label, `is for provider "${pact.provider.name}"; the kit verifies ${expected}`);
  }
  return {
    label,
    source,
    consumer: pact.consumer.name,
    provider: pact.provider.name,
    version,
    interactions: pact.interactions.map((raw, index) => toInteraction(raw, index, label)),
    document: json as Record<string, unknown>,
  };
}

function toInteraction(raw: unknown, index: number, label: string): PactInteraction {
  const parsed = interactionSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = `interactions[${index}]${issue && issue.path.length > 0 ? `.${formatPath(issue.path)}` : ''}`;
    throw new PactFileError(label, `${where} ${issue?.message ?? 'is invalid'}`);
  }
  const { type, key, description, providerState, providerStates, request, response } = parsed.data;
  if (type !== undefined && type !== 'Synchronous/HTTP') {
    throw new PactFileError(
      label,
      `interactions[${index}] ("${description}") is a ${type} interaction; the kit replays HTTP interactions only`,
    );
  }
  const generators = request.generators ?? undefined;
  const pathGenerator = generators?.path as { type?: unknown; expression?: unknown } | undefined;
  return {
    index,
    key,
    description,
    states: providerStates?.length
      ? providerStates.map((state) => ({ name: state.name, params: state.params ?? {} }))
      : providerState
        ? [{ name: providerState, params: {} }]
        : [],
    method: request.method.toUpperCase(),
    path: request.path,
    pathExpression:
      pathGenerator?.type === 'ProviderState' && typeof pathGenerator.expression === 'string'
        ? pathGenerator.expression
        : undefined,
    query: queryOf(request.query),
    headers: Object.fromEntries(
      Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), [value].flat()]),
    ),
    body: bodyOf(request.body),
    injected: [...new Set(injectedNames(generators))],
    expects: expectation(response),
    raw: raw as Record<string, unknown>,
  };
}

function queryOf(query: RawInteraction['request']['query']): Record<string, string[]> {
  if (typeof query === 'string') {
    const out: Record<string, string[]> = {};
    for (const [key, value] of new URLSearchParams(query)) out[key] = [...(out[key] ?? []), value];
    return out;
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
function expectation(response: RawInteraction['response']): PactInteraction['expects'] {
  const rules = response.matchingRules?.status as { $?: { matchers?: { status?: unknown }[] } } | undefined;
  const statusClass = rules?.$?.matchers?.find((matcher) => typeof matcher.status === 'string')?.status;
  if (typeof statusClass !== 'string') return response.status >= 400 ? 'refusal' : 'success';
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
