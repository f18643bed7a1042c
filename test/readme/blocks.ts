import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fenced code block of a README, with the HTML-comment markers right above its fence. */
export interface Block {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly text: string;
  readonly markers: readonly string[];
  /** The README's text before the fence: where it says to save a file or which target to start. */
  readonly before: string;
}

/** Every README the repository holds (tracked or new), relative to `root`. */
export function readmeFiles(root: string): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'README.md', '**/README.md'],
    { cwd: root, encoding: 'utf8' },
  );
  return [...new Set(listed.split('\n').filter(Boolean))].sort();
}

/** The fenced blocks of one README, in order. */
export function blocksOf(root: string, file: string): Block[] {
  const source = readFileSync(join(root, file), 'utf8');
  const lines = source.split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(`{3,})(\S*)\s*$/.exec(lines[index] as string);
    if (!open) continue;
    const fence = open[1] as string;
    const close = lines.findIndex((line, at) => at > index && line.trim() === fence);
    if (close < 0) throw new Error(`${file}:${index + 1}: a fence that never closes`);
    const markers: string[] = [];
    for (let above = index - 1; above >= 0; above -= 1) {
      const marker = /^<!--\s*(.*?)\s*-->$/.exec(lines[above] as string);
      if (!marker) break;
      markers.unshift(marker[1] as string);
    }
    blocks.push({
      file,
      line: index + 1,
      lang: (open[2] as string).toLowerCase(),
      text: lines.slice(index + 1, close).join('\n'),
      markers,
      before: lines.slice(0, index).join('\n'),
    });
    index = close;
  }
  return blocks;
}

/** What the markers above a block ask for. */
export interface Markers {
  /** `<!-- not run: REASON -->`: the whole block. */
  readonly notRun?: string;
  /** `<!-- not run "PREFIX", "PREFIX": REASON -->`: the commands of a shell block that start so. */
  readonly notRunCommands: readonly string[];
  /** `<!-- output of "COMMAND" -->`: what a command run by an earlier block prints. */
  readonly outputOf?: string;
  /** `<!-- excerpt of PATH -->`: lines of a file the tests run, in order. */
  readonly excerptOf?: string;
  /** `<!-- run in: a new project -->`: a shell block run from a new project outside the repository. */
  readonly newProject: boolean;
  readonly unknown: readonly string[];
}

export function readMarkers(block: Block): Markers {
  const notRunCommands: string[] = [];
  const unknown: string[] = [];
  let notRun: string | undefined;
  let outputOf: string | undefined;
  let excerptOf: string | undefined;
  let newProject = false;
  for (const marker of block.markers) {
    const whole = /^not run: (\S.*)$/.exec(marker);
    const some = /^not run ((?:"[^"]+"(?:, )?)+): (\S.*)$/.exec(marker);
    const output = /^output of "([^"]+)"$/.exec(marker);
    const excerpt = /^excerpt of (\S+)$/.exec(marker);
    if (whole) notRun = whole[1];
    else if (some)
      notRunCommands.push(...[...(some[1] as string).matchAll(/"([^"]+)"/g)].map((m) => m[1] as string));
    else if (output) outputOf = output[1];
    else if (excerpt) excerptOf = excerpt[1];
    else if (marker === 'run in: a new project') newProject = true;
    else unknown.push(marker);
  }
  return { notRun, notRunCommands, outputOf, excerptOf, newProject, unknown };
}

/** One command of a shell block, with the `# …` lines under it: what it prints. */
export interface Command {
  readonly text: string;
  readonly prints: readonly string[];
}

/** The commands of a shell block: continuations joined, trailing comments dropped. */
export function commandsOf(text: string): Command[] {
  const commands: { text: string; prints: string[] }[] = [];
  for (const line of text.replace(/\\\n\s*/g, ' ').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      commands.at(-1)?.prints.push(trimmed.replace(/^#\s*/, ''));
      continue;
    }
    commands.push({ text: trimmed.replace(/\s+#\s.*$/, ''), prints: [] });
  }
  return commands;
}

/** The texts a code example's `// prints: …` comments promise on stdout. */
export function promisedPrints(code: string): string[] {
  return [...code.matchAll(/\/\/ prints: (.+)$/gm)].map((match) => (match[1] as string).trim());
}

/** The path the README says to save the example as, the nearest such sentence above it. */
export function savePath(block: Block): string | undefined {
  const said = [...block.before.matchAll(/[Ss]ave\s+(?:\w+\s+)*?as\s+`([^`]+\.mjs)`/g)];
  return said.at(-1)?.[1];
}

/** Splits a simple command line (quotes, no expansions) into leading assignments and words. */
export function words(command: string): { env: Record<string, string>; argv: string[] } {
  const argv = [...command.matchAll(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g)].map((match) =>
    (match[0] as string).replace(/"([^"]*)"|'([^']*)'/g, '$1$2'),
  );
  const env: Record<string, string> = {};
  while (argv.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(argv[0] as string)) {
    const [name, ...value] = (argv.shift() as string).split('=');
    env[name as string] = value.join('=');
  }
  return { env, argv };
}

/**
 * A loose check of an output sample against a real run: each sample line led by a capitalised
 * word must have a line of the run led by the same word, and each line led by a lowercase word
 * must have its text up to the first wide gap in the run. Counts, times and `…` lines are left
 * to the commands' own tests.
 */
export function missingSampleLines(sample: string, output: string): string[] {
  const lines = output.split('\n').map((line) => line.trim());
  const missing: string[] = [];
  for (const raw of sample.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('…') || /^[\d(—-]/.test(line)) continue;
    const first = line.split(/\s/)[0] as string;
    if (/^[A-Z]/.test(first)) {
      if (!lines.some((printed) => printed.startsWith(first))) missing.push(line);
    } else {
      // Timings differ from run to run: `(15 ms)`, `in 0.83 s`.
      const text = (line.split(/\s{2,}/)[0] as string).replace(/\s*\(\d+ ms\)$/, '');
      if (!output.includes(text)) missing.push(line);
    }
  }
  return missing;
}

/** The lines of an excerpt (`// …` elisions left out) missing from `file`, in order. */
export function missingExcerptLines(excerpt: string, file: string): string[] {
  const source = file.split('\n').map((line) => line.trim());
  const missing: string[] = [];
  let at = 0;
  for (const raw of excerpt.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('// …')) continue;
    const found = source.indexOf(line, at);
    if (found < 0) missing.push(line);
    else at = found + 1;
  }
  return missing;
}
