import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { CONTRACTS_DIR, renderStubTable, STUB_STATE_HEADER, stubRoutes } from '../../src/index.js';
import { readPact } from '../../src/pact-files.js';
import { STUB_COMMAND } from './support/stub-command.js';

const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));
const START =
  '<!-- stub-table:start: generated from contracts/ by `pnpm contracts`; `pnpm test` fails when stale -->';
const END = '<!-- stub-table:end -->';

const pacts = readdirSync(CONTRACTS_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => readPact(join(CONTRACTS_DIR, name)));
const table = renderStubTable(stubRoutes(pacts));

/**
 * A Markdown table as its cells: `pnpm format` (Biome) pads the README's tables into columns,
 * which changes the text but not the table.
 */
const cells = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((row) =>
      row
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim())
        .map((cell) => (/^-+$/.test(cell) ? '---' : cell)),
    );

describe("the root README's table of the stub", () => {
  it('lists every interaction of contracts/ with the state header that reaches it', () => {
    for (const pact of pacts) {
      for (const interaction of pact.interactions) {
        const state = interaction.providerStates?.[0]?.name ?? '^$';
        expect(table).toContain(`| ${interaction.description.replaceAll('|', '\\|')} |`);
        expect(table).toContain(`\`${state}\``);
      }
    }
  });

  it('is the table the contracts give (`pnpm contracts` rewrites it)', () => {
    const readme = readFileSync(README, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect(start, `the root README needs the markers ${START} … ${END}`).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const current = readme.slice(start + START.length, end);
    const wanted = `\n${table}`;
    const stale = JSON.stringify(cells(current)) !== JSON.stringify(cells(wanted));
    if (inject('updateContracts') && stale) {
      writeFileSync(README, readme.slice(0, start + START.length) + wanted + readme.slice(end));
      return;
    }
    expect(cells(current), 'the stub table in README.md is stale: run `pnpm contracts`').toEqual(
      cells(wanted),
    );
  });

  it(`shows the command the tests run, ${STUB_COMMAND}, and the state header, in the section for other teams`, () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(
      readme.indexOf('### Another team reading the contracts'),
      readme.indexOf(END),
    );
    expect(section).toMatch(new RegExp(`^${STUB_COMMAND}\\b`, 'm'));
    expect(section).toContain(STUB_STATE_HEADER);
  });
});
