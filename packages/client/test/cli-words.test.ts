import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { closestFlag } from '../src/cli-words.js';
import { argsProblem, describeTransportFailure, listenProblem, parseFlags, usageLine } from '../src/kit.js';

const KNOWN = ['base-url', 'mode', 'only', 'verbose', 'version', 'strict', 'help'];

const problemOf = (args: string[]) => {
  try {
    parseArgs({ args, options: { version: { type: 'boolean' }, only: { type: 'string' } }, strict: true });
  } catch (error) {
    return argsProblem(error, KNOWN);
  }
  return 'parsed';
};

describe('closestFlag', () => {
  it.each([
    ['--verison', '--version'],
    ['--base-ulr', '--base-url'],
    ['--strcit', '--strict'],
    ['--base-url=https://x', '--base-url'],
    ['--onyl', '--only'],
    ['--nothing-like-it', undefined],
    ['--x', undefined],
  ])('suggests for %s: %s', (given, want) => {
    expect(closestFlag(given, KNOWN)).toBe(want);
  });
});

describe('argsProblem', () => {
  it('adds "did you mean" to an unknown option close to a known one', () => {
    expect(problemOf(['--verison'])).toBe("Unknown option '--verison'; did you mean --version?");
  });

  it('says an option followed by another option needs a value, and how to give one starting with a dash', () => {
    for (const args of [
      ['--only', '--version'],
      ['--only', '-1'],
    ]) {
      expect(problemOf(args)).toBe(
        "Option '--only' needs a value before the next option; a value that starts with a dash is written --only=-VALUE",
      );
    }
  });

  it('keeps the first line alone for an option close to none', () => {
    expect(problemOf(['--zzzzzzzz'])).not.toContain('did you mean');
  });
});

describe('parseFlags', () => {
  const options = {
    mode: { type: 'string' },
    only: { type: 'string', multiple: true },
    verbose: { type: 'boolean' },
  } as const;
  const parse = (args: string[]) => parseFlags({ args, options, strict: true });

  it.each([[['--mode', 'sample', '--mode', 'live']], [['--mode=sample', '--mode', 'live']]])(
    'refuses a one-value option given twice, %j, naming it',
    (args) => {
      let problem = 'parsed';
      try {
        parse(args);
      } catch (error) {
        problem = argsProblem(error, KNOWN);
      }
      expect(problem).toBe("Option '--mode' is given more than once; give it once");
    },
  );

  it.each([[['--mode=']], [['--mode', '']], [['--only', 'a', '--only', ' ']]])(
    'refuses an empty value, %j, naming the option',
    (args) => {
      expect(() => parse(args)).toThrow(/^Option '--(mode|only)' has an empty value; give one$/);
    },
  );

  it('takes a repeatable option and a repeated switch as parseArgs does', () => {
    expect(parse(['--only', 'a', '--only', 'b', '--verbose', '--verbose', '--mode', 'live']).values).toEqual({
      only: ['a', 'b'],
      verbose: true,
      mode: 'live',
    });
  });
});

describe('usageLine', () => {
  it('is one line that points at the command help', () => {
    expect(usageLine('stub', 'bad')).toBe('stub: bad (see pnpm stub --help)\n');
  });
});

describe('listenProblem', () => {
  const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
  const given = { port: 8080, host: 'printer.local' };

  it.each([
    [
      'EADDRINUSE',
      '--port 8080 is in use by another program; choose another port, or --port 0 for a free one',
    ],
    [
      'ENOTFOUND',
      '--host "printer.local" does not resolve to an address; give one of this machine, e.g. --host 127.0.0.1',
    ],
    [
      'EAI_AGAIN',
      '--host "printer.local" does not resolve to an address; give one of this machine, e.g. --host 127.0.0.1',
    ],
    [
      'EINVAL',
      '--host "printer.local" does not resolve to an address; give one of this machine, e.g. --host 127.0.0.1',
    ],
    [
      'EADDRNOTAVAIL',
      '--host "printer.local" is not an address of this machine; give one of its own, e.g. --host 127.0.0.1',
    ],
  ])('names the flag and its fix for %s', (code, want) => {
    expect(listenProblem(failure(code), given)).toBe(want);
  });

  it('names no flag for a failure no flag caused, nor --host for a command without one', () => {
    expect(listenProblem(failure('EMFILE'), given)).toBeUndefined();
    expect(listenProblem(failure('EADDRNOTAVAIL'), { port: 8080 })).toBeUndefined();
    expect(listenProblem('not an error', given)).toBeUndefined();
  });
});

describe('describeTransportFailure', () => {
  it('says an https URL reached a server without TLS, and how to fix it', () => {
    const error = Object.assign(new Error('fetch failed'), {
      cause: { code: 'ERR_SSL_WRONG_VERSION_NUMBER' },
    });
    const text = describeTransportFailure(error);
    expect(text).toContain('does not speak TLS');
    expect(text).toContain('http://');
    expect(text).not.toContain('NODE_EXTRA_CA_CERTS');
  });
});
