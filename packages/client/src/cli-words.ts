/**
 * What every command line of the kit says the same way: one usage line that points at `--help`,
 * and "did you mean" for a flag one or two keystrokes from a known one.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

type ParsedResults<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`; flags are short, the table small. */
function editDistance(a: string, b: string): number {
  const rows = [Array.from({ length: b.length + 1 }, (_, index) => index)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    const up = rows[i - 1] ?? [];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(
        (up[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (up[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row[j] = best;
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/** The known flag nearest to `given` (`--verison` → `--version`), if it is near enough to be a typo. */
export function closestFlag(given: string, known: readonly string[]): string | undefined {
  const bare = given.replace(/^-+/, '').split('=')[0] ?? '';
  const limit = bare.length <= 4 ? 1 : 2;
  let best: { flag: string; distance: number } | undefined;
  for (const flag of known) {
    const distance = editDistance(bare, flag);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { flag, distance };
  }
  return best && `--${best.flag}`;
}

/**
 * The first line of a `node:util` `parseArgs` error, without its advice about `--`, and with
 * "did you mean --x?" when the unknown option is close to one of `known` (the long names).
 */
export function argsProblem(error: unknown, known: readonly string[]): string {
  const [line = ''] = (error instanceof Error ? error.message : String(error)).split('\n');
  const problem = line.replace(/\. To specify a positional argument.*$/, '').replace(/\.$/, '');
  // "argument is ambiguous" alone names no fix; the lines after it, which do, are cut above.
  const valueless = /^Option '(-[^']*)' argument is ambiguous/.exec(problem)?.[1];
  if (valueless) {
    return `Option '${valueless}' needs a value before the next option; a value that starts with a dash is written ${valueless}=-VALUE`;
  }
  const unknown = /^Unknown option '(-[^']*)'/.exec(problem)?.[1];
  const near = unknown ? closestFlag(unknown, known) : undefined;
  return near ? `${problem}; did you mean ${near}?` : problem;
}

/** The one usage error every command prints: `verify: <problem> (see pnpm verify --help)`. */
export const usageLine = (command: string, problem: string) =>
  `${command}: ${problem} (see pnpm ${command} --help)\n`;

/**
 * `node:util`'s `parseArgs`, refusing what it takes unsaid: a one-value option given twice (its
 * last value would win: `--mode sample --mode live` would run live) and an empty value
 * (`--report-dir=` would write into the current folder). The errors read like `parseArgs`' own,
 * for `argsProblem`.
 */
export function parseFlags<T extends ParseArgsConfig>(config: T): ParsedResults<T> {
  const parsed = parseArgs({ ...config, tokens: true });
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    const option = config.options?.[token.name];
    if (option?.type !== 'string') continue;
    if (token.value?.trim() === '') throw new Error(`Option '--${token.name}' has an empty value; give one`);
    if (option.multiple) continue;
    if (seen.has(token.name))
      throw new Error(`Option '--${token.name}' is given more than once; give it once`);
    seen.add(token.name);
  }
  return parsed as ParsedResults<T>;
}

/**
 * What a command says when its server cannot listen where `--port` or `--host` told it: the flag
 * and its fix (`--port 8080 is in use by another program; …`), for `usageLine`. Undefined for a
 * failure no flag caused, and for a host failure of a command without `--host` (`given.host`
 * unset): its own message then says more.
 */
export function listenProblem(error: unknown, given: { port: number; host?: string }): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'EADDRINUSE') {
    return `--port ${given.port} is in use by another program; choose another port, or --port 0 for a free one`;
  }
  if (given.host === undefined) return undefined;
  const host = JSON.stringify(given.host);
  // EINVAL: getaddrinfo refused the name itself (a byte no host name holds).
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EINVAL') {
    return `--host ${host} does not resolve to an address; give one of this machine, e.g. --host 127.0.0.1`;
  }
  if (code === 'EADDRNOTAVAIL') {
    return `--host ${host} is not an address of this machine; give one of its own, e.g. --host 127.0.0.1`;
  }
  return undefined;
}
