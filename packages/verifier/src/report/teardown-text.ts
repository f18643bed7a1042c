import type { LedgerOutcome } from '../ledger/ledger.js';
import type { Settlement } from '../settle/settle.js';

/** How an order's end reads in the summary, in the order the summary lists them. */
const ENDINGS: Readonly<Record<Exclude<LedgerOutcome, 'not-created'>, string>> = {
  cancelled: 'cancelled',
  'settled-by-reference': 'cancelled after a scan by reference',
  'creation-failed': 'failed creation at the vendor (nothing to cancel)',
  'not-found': 'never placed (404 past their creation window)',
  gone: 'gone with the embedded sample API',
};

/** Every order the run created, accounted for in one line: `Orders: 24 created at the target: 22 cancelled, …`. */
export function teardownText(teardown: Settlement): string {
  const ends = Object.entries(ENDINGS).flatMap(([outcome, words]) => {
    const count = teardown.ended[outcome as LedgerOutcome];
    return count ? [`${count} ${words}`] : [];
  });
  const open =
    teardown.open > 0
      ? `${teardown.open} still open in ${teardown.ledger ?? 'the ledger'} (run \`pnpm verify --cleanup\`)`
      : 'none left open';
  return `Orders: ${teardown.created} created at the target${ends.length > 0 ? `: ${ends.join(', ')}` : ''}; ${open}.`;
}
