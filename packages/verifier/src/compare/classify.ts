/** How one interaction × version moved between the baseline and this run. */
export type ChangeKind = 'new-failure' | 'regression' | 'fixed' | 'unchanged' | 'new-interaction' | 'gone';

/**
 * The classification table. `before`/`now` are verdicts, undefined where that run did not hold
 * the interaction. A regression is anything that was verified and is not now (FAILED included);
 * a new failure is FAILED now after anything but verified or FAILED (or after nothing).
 */
export function classify(before: string | undefined, now: string | undefined): ChangeKind {
  if (now === undefined) return 'gone';
  if (before === undefined) return now === 'failed' ? 'new-failure' : 'new-interaction';
  if (before === 'verified') return now === 'verified' ? 'unchanged' : 'regression';
  if (now === 'failed') return before === 'failed' ? 'unchanged' : 'new-failure';
  return now === 'verified' ? 'fixed' : 'unchanged';
}
