import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { DocumentError } from '../errors/document-error.js';
import { GitRevisionError } from '../errors/git-revision-error.js';
import { isJsonObject, type JsonObject } from '../schemas/json-schema.js';
import { diffDocuments } from './diff-documents.js';
import type { FileChanges } from './render-changes.js';

const run = promisify(execFile);

/** Where the documents live inside the repository. */
export const DOCUMENTS_PATH = 'contracts/openapi';

async function git(args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await run('git', [...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

function parse(text: string, where: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DocumentError(`${where} is not JSON: ${(error as Error).message.split('\n')[0]}`, {
      cause: error,
    });
  }
  if (!isJsonObject(value)) throw new DocumentError(`${where} does not hold a JSON object`);
  return value;
}

/** The top of the git work tree `cwd` is in; a `GitRevisionError` outside one. */
export async function repositoryRoot(cwd: string): Promise<string> {
  try {
    return (await git(['rev-parse', '--show-toplevel'], cwd)).trim();
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'git is not installed (or not on PATH)'
        : `${cwd} is not inside a git work tree`;
    throw new GitRevisionError('HEAD', why, { cause: error });
  }
}

/** The documents (`contracts/openapi/*.json`) as committed at `revision`, by file name. */
export async function documentsAtRevision(revision: string, root: string): Promise<Map<string, JsonObject>> {
  let commit: string;
  try {
    commit = (
      await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], root)
    ).trim();
  } catch (error) {
    throw new GitRevisionError(revision, `Unknown git revision "${revision.slice(0, 100)}"`, {
      cause: error,
    });
  }
  // The revision exists: a failure now is git's (a damaged or shallow clone), said in one line.
  const read = (args: readonly string[]) =>
    git(args, root).catch((error: unknown) => {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '')
        .trim()
        .split('\n')[0];
      throw new GitRevisionError(
        revision,
        `git ${args[0]} failed at "${revision.slice(0, 100)}": ${stderr || 'no reason given'}`,
        {
          cause: error,
        },
      );
    });
  const listing = await read(['ls-tree', '--name-only', commit, `${DOCUMENTS_PATH}/`]);
  const documents = new Map<string, JsonObject>();
  for (const path of listing.split('\n').filter((line) => line.endsWith('.json'))) {
    const name = path.slice(DOCUMENTS_PATH.length + 1);
    documents.set(name, parse(await read(['show', `${commit}:${path}`]), `${path} at ${revision}`));
  }
  return documents;
}

/** The documents in the work tree, by file name. */
export function documentsInWorkTree(root: string): Map<string, JsonObject> {
  const dir = join(root, DOCUMENTS_PATH);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return new Map();
  }
  return new Map(
    names
      .sort()
      .map((name) => [name, parse(readFileSync(join(dir, name), 'utf8'), relative(root, join(dir, name)))]),
  );
}

/**
 * What changed in each document between `revision` and the work tree of the repository
 * `cwd` is in; a document only on one side counts as all added or all removed.
 */
export async function diffSinceRevision(revision: string, cwd: string): Promise<FileChanges[]> {
  const root = await repositoryRoot(cwd);
  const before = await documentsAtRevision(revision, root);
  const after = documentsInWorkTree(root);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.map((file) => ({ file, changes: diffDocuments(before.get(file), after.get(file)) }));
}
