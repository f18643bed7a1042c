import { ENV, SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import { PLACEHOLDER_CREDENTIALS, WRONG_SECRET } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { scanForCredentials, secretsFromEnv, tokenReason } from '../../src/credential-scan.js';

const contract = (headers: Record<string, string[]>, body: unknown = { reference: 'Spring flyers' }) =>
  new Map([
    [
      'pact.json',
      JSON.stringify({
        interactions: [
          {
            description: 'a request to create an order',
            request: { method: 'POST', path: '/api/orders', headers, body: { content: body } },
            response: { status: 201, body: { content: { uuid: '7d3f5c2a-9b1e-4f6d-8a2c-3e5b7d9f1a4c' } } },
          },
        ],
      }),
    ],
  ]);

const PLACEHOLDER_HEADERS = {
  Accept: ['application/vnd.printdeal-api.v2'],
  [USER_ID_HEADER]: [PLACEHOLDER_CREDENTIALS.userId],
  [SECRET_HEADER]: [PLACEHOLDER_CREDENTIALS.secret],
};

describe('scanForCredentials', () => {
  it('passes placeholders, the deliberate wrong secret, uuids, paths and media types', () => {
    expect(scanForCredentials(contract(PLACEHOLDER_HEADERS))).toEqual([]);
    expect(scanForCredentials(contract({ ...PLACEHOLDER_HEADERS, [SECRET_HEADER]: [WRONG_SECRET] }))).toEqual(
      [],
    );
  });

  it('flags a credential header holding anything but its placeholder, without repeating the value', () => {
    const leaked = 'k8Jd02hPq9';
    const findings = scanForCredentials(contract({ ...PLACEHOLDER_HEADERS, [SECRET_HEADER]: [leaked] }));
    expect(findings).toEqual([
      {
        file: 'pact.json',
        where: 'interaction "a request to create an order", $.interactions[0].request.headers.API-Secret',
        reason: 'header API-Secret holds something other than its placeholder',
      },
    ]);
    expect(JSON.stringify(findings)).not.toContain(leaked);
  });

  it('flags any other credential header', () => {
    const findings = scanForCredentials(contract({ ...PLACEHOLDER_HEADERS, Authorization: ['Bearer abc'] }));
    expect(findings.map((finding) => finding.reason)).toContain(
      'header Authorization carries credentials; contracts use User-ID/API-Secret placeholders only',
    );
  });

  it('flags the value of PRINT_API_SECRET anywhere in the text', () => {
    const secrets = secretsFromEnv({ [ENV.secret]: 'correct horse battery staple' });
    const findings = scanForCredentials(
      contract(PLACEHOLDER_HEADERS, { reference: 'correct horse battery staple' }),
      secrets,
    );
    expect(findings).toEqual([
      { file: 'pact.json', where: '(text)', reason: `holds the value of ${ENV.secret}` },
    ]);
  });

  it.each([
    ['percent-encoded, lower case', 'correct%20horse%2fbattery%20staple'],
    ['form-encoded', 'correct+horse%2Fbattery+staple'],
    ['JSON-escaped as PHP and Go write it', 'correct\\u0020horse\\/battery\\u0020staple'],
  ])('flags the value of PRINT_API_SECRET %s', (_how, spelled) => {
    const secrets = secretsFromEnv({ [ENV.secret]: 'correct horse/battery staple' });
    const files = new Map([['pact.json', `{"interactions":[],"note":"${spelled}"}`]]);
    expect(scanForCredentials(files, secrets)).toContainEqual({
      file: 'pact.json',
      where: '(text)',
      reason: `holds the value of ${ENV.secret}`,
    });
  });

  it('flags token-like strings in bodies and fields named like credentials', () => {
    const findings = scanForCredentials(
      contract(PLACEHOLDER_HEADERS, {
        note: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
        apiKey: 'short',
      }),
    );
    expect(findings.map((finding) => finding.reason).sort()).toEqual([
      'a long token-like string',
      'field "apiKey" carries a credential-like value',
    ]);
  });
});

describe('tokenReason', () => {
  it('recognises bearer values, JSON Web Tokens and long tokens, and nothing ordinary', () => {
    expect(tokenReason('Bearer 0123456789')).toBe('an HTTP credential (Bearer/Basic)');
    expect(tokenReason('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl')).toBe('a JSON Web Token');
    expect(tokenReason('ghp_1234567890abcdefghijABCDEFGHIJ')).toBe('a long token-like string');
    for (const ordinary of [
      '7d3f5c2a-9b1e-4f6d-8a2c-3e5b7d9f1a4c',
      '/api/orders/7d3f5c2a-9b1e-4f6d-8a2c-3e5b7d9f1a4c',
      'application/vnd.printdeal-api.v2',
      'https://files.example.com/artwork/flyer-a5.pdf',
      'Spring campaign flyers for every Benelux store',
    ]) {
      expect(tokenReason(ordinary)).toBeUndefined();
    }
  });
});
