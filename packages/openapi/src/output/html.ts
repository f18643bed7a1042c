import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../errors/tool-error.js';
import { REDOCLY_CONFIG, runRedocly } from '../tools/redocly.js';

/**
 * The static HTML reference of one document, from Redocly's `build-docs` (Redoc): the page is
 * pre-rendered on the server, so the operations are in the HTML itself, and Redoc's script is
 * inlined, so the one file works offline. Deterministic: same document, same bytes.
 */
export async function renderHtmlReference(
  documentText: string,
  fileStem: string,
  title: string,
): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'print-contracts-openapi-html-'));
  try {
    const input = join(scratch, `${fileStem}.json`);
    const output = join(scratch, `${fileStem}.html`);
    await writeFile(input, documentText);
    const run = await runRedocly(
      [
        'build-docs',
        input,
        '--output',
        output,
        '--inlineBundle',
        '--title',
        title,
        '--config',
        REDOCLY_CONFIG,
      ],
      scratch,
    );
    if (run.status !== 0) {
      const reason = `${run.stderr}\n${run.stdout}`.trim().split('\n').slice(-1)[0] ?? '';
      throw new ToolError('redocly build-docs', `redocly build-docs failed for ${fileStem}: ${reason}`);
    }
    return await readFile(output, 'utf8');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
