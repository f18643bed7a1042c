/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) throw new RangeError('median of nothing');
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Measures a subject and its reference in alternating rounds, so both see the same machine
 * load; returns the median of each and the ratio subject / reference.
 */
export async function sideBySide(
  runs: number,
  subject: () => Promise<number>,
  reference: () => Promise<number>,
): Promise<{ subject: number; reference: number; ratio: number }> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    b.push(await reference());
    a.push(await subject());
  }
  const s = median(a);
  const r = median(b);
  return { subject: s, reference: r, ratio: s / r };
}

/** Requests per second for `count` calls of `call`, `concurrency` at a time. */
export async function throughput(
  count: number,
  concurrency: number,
  call: () => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return count / seconds;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
