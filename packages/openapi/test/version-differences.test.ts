import { describe, expect, it } from 'vitest';
import { renderVersionDifferences } from '../src/diff/render-changes.js';
import { buildOpenApiDocuments } from '../src/document/build-document.js';

describe('renderVersionDifferences', () => {
  const lines = renderVersionDifferences(buildOpenApiDocuments());
  const rows = lines.filter((line) => line.startsWith('| ') && !line.startsWith('| operation'));

  it('opens with a heading and a table', () => {
    expect(lines[0]).toBe('## What differs between v1 and v2');
    expect(lines).toContain('| operation | where | change | for a v1 client |');
  });

  it('names the version header as the change every operation sees', () => {
    expect(rows[0]).toBe(
      '| every operation | `x-version-header` | Accept: application/vnd.printdeal-api.v1 → Accept: application/vnd.printdeal-api.v2 | **breaking** |',
    );
  });

  it("marks v1's product-code lines as breaking and v2's quote field as additive at create", () => {
    expect(rows).toContain(
      '| createOrder (POST /orders) | `request body: orderLines[]` | no longer OrderLineV1 | **breaking** |',
    );
    expect(rows).toContain(
      '| createOrder (POST /orders) | `request body: quoteId` | added (optional) | additive |',
    );
  });

  it("marks v2's narrower delivery methods (1, 6, 18, 19 → 1), a check the client makes in code, as breaking", () => {
    const rows = lines.filter((line) => line.includes('`request body: deliveryMethod`'));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatch(/1, 6, 18, 19.*\| \*\*breaking\*\* \|$/);
  });

  it('renders nothing when a version has no document', () => {
    const documents = buildOpenApiDocuments();
    documents.delete('v1');
    expect(renderVersionDifferences(documents)).toEqual([]);
  });
});
