import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { API_VERSIONS, formatPath } from '@print-contracts/client';
import { providerName } from '@print-contracts/client/kit';
import type { z } from 'zod';
import { PactFileError } from '../errors/index.js';
import { interactionSchema, type LoadedPact, type PactSource, pactSchema } from './interaction.js';

/**
 * Reads every pact named by `paths` (files, or folders of `*.json` pacts) in a stable order. A
 * missing, unreadable or malformed file is a one-line `PactFileError`: the run does not start.
 * A pact named twice (the same file by another path or link, or a copy of it) is read once.
 */
export async function loadPactFiles(paths: readonly string[], cwd: string): Promise<LoadedPact[]> {
  const files: string[] = [];
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    const info = await stat(absolute).catch(() => undefined);
    if (info === undefined) throw new PactFileError(given, 'no such file or folder');
    // A pipe or a device would block the read (a pipe with no writer, for good).
    if (!info.isDirectory() && !info.isFile()) throw new PactFileError(given, 'is not a file or a folder');
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
  const read = await Promise.all(
    files.map(async (file) => {
      const near = relative(cwd, file);
      const label = near && !near.startsWith('..') ? near : file;
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new PactFileError(label, `cannot be read (${error.code ?? 'error'})`);
      });
      return { file, label, text };
    }),
  );
  const seen = new Set<string>();
  return read
    .filter(({ text }) => !seen.has(text) && seen.add(text))
    .map(({ file, label, text }) => parsePact(text, label, { kind: 'file', path: file }));
}

/** Parses and checks one pact document; `label` names it in every error. */
export function parsePact(text: string, label: string, source: PactSource): LoadedPact {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PactFileError(label, 'is not valid JSON');
  }
  const pact = pactSchema.safeParse(json);
  if (!pact.success) throw new PactFileError(label, `is not a pact: ${firstIssue(pact.error)}`);
  const { consumer, provider, interactions, metadata } = pact.data;
  const version = API_VERSIONS.find((v) => providerName(v) === provider.name);
  if (version === undefined) {
    const expected = API_VERSIONS.map((v) => providerName(v)).join(' or ');
    throw new PactFileError(label, `is for provider "${provider.name}"; the kit verifies ${expected}`);
  }
  // Pact reads the interactions by the specification the file names: V4 bodies read as V3 would
  // fail every interaction, a broken file blamed on the vendor.
  const specification = (metadata?.pactSpecification ?? metadata?.['pact-specification'])?.version;
  if (!specification?.match(/^4(?:\.|$)/)) {
    const named = specification
      ? `is a Pact specification ${specification} pact`
      : 'names no Pact specification (metadata.pactSpecification.version)';
    throw new PactFileError(label, `${named}; the kit replays V4 pacts, as the consumer suite writes them`);
  }
  if (interactions.length === 0) throw new PactFileError(label, 'holds no interactions: nothing to verify');
  return {
    label,
    source,
    consumer: consumer.name,
    provider: provider.name,
    version,
    interactions: interactions.map((raw, index) => {
      const parsed = interactionSchema.safeParse(raw);
      if (!parsed.success) throw new PactFileError(label, firstIssue(parsed.error, ['interactions', index]));
      return { index, ...parsed.data, raw: raw as Record<string, unknown> };
    }),
    document: json as Record<string, unknown>,
  };
}

/** `interactions[2].request.path must start with /`: the first issue zod found, and where. */
function firstIssue(error: z.ZodError, at: PropertyKey[] = []): string {
  const issue = error.issues[0];
  const where = formatPath([...at, ...(issue?.path ?? [])]);
  return `${where ? `${where} ` : ''}${issue?.message ?? 'is invalid'}`;
}
