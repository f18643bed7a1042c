import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GitRevisionError } from '../errors/git-revision-error.js';
import { type JsonObject, parseJsonObject } from '../json.js';
import { readOpenApiFiles } from '../output/files.js';
import { diffDocuments } from './diff-documents.js';
import type { FileChanges } from './render-changes.js';

const run = promisify(execFile);

/** Where the documents live inside the repository. */
const DOCUMENTS_PATH = 'contracts/openapi';

async function git(args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await run('git', [...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** The top of the git work tree `cwd` is in; a `GitRevisionError` outside one. */
async function repositoryRoot(cwd: string): Promise<string> {
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
async function documentsAtRevision(revision: string, root: string): Promise<Map<string, JsonObject>> {
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
      const why = `git ${args[0]} failed at "${revision.slice(0, 100)}": ${stderr || 'no reason given'}`;
      throw new GitRevisionError(revision, why, { cause: error });
    });
  const listing = await read(['ls-tree', '--name-only', commit, `${DOCUMENTS_PATH}/`]);
  const documents = new Map<string, JsonObject>();
  for (const path of listing.split('\n').filter((line) => line.endsWith('.json'))) {
    const name = path.slice(DOCUMENTS_PATH.length + 1);
    documents.set(name, parseJsonObject(await read(['show', `${commit}:${path}`]), `${path} at ${revision}`));
  }
  return documents;
}

/**
 * What changed in each document between `revision` and the work tree of the repository
 * `cwd` is in; a document only on one side counts as all added or all removed.
 */
export async function diffSinceRevision(revision: string, cwd: string): Promise<FileChanges[]> {
  const root = await repositoryRoot(cwd);
  const before = await documentsAtRevision(revision, root);
  const after = new Map(
    [...readOpenApiFiles(join(root, DOCUMENTS_PATH))].map(([name, text]) => [
      name,
      parseJsonObject(text, `${DOCUMENTS_PATH}/${name}`),
    ]),
  );
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.map((file) => ({ file, changes: diffDocuments(before.get(file), after.get(file)) }));
}
