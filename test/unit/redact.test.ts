import { describe, expect, it } from 'vitest';
import { maskMiddle, maskSecret, redactToken, redactUrl, redactUrlsIn } from '../../src/redact.js';

const TOKEN = 'tok_live_9f8e7d6c5b4a39281706';

describe('maskSecret', () => {
  it.each([
    ['', '****'],
    ['abc', '****'],
    ['12345678901', '****'],
    ['123456789012', '****9012'],
    ['ghp_0123456789abcdefWXYZ', '****WXYZ'],
    ['eyJhbGciOiJIUzI1NiJ9.payload.signatureabcd', '****abcd'],
  ])('%j → %s', (value, masked) => {
    expect(maskSecret(value)).toBe(masked);
    if (value) expect(maskSecret(value)).not.toContain(value);
  });
});

describe('redactToken', () => {
  it.each([
    ['the token itself', `a ${TOKEN} b`, TOKEN, 'a [redacted] b'],
    ['twice', `${TOKEN}${TOKEN}`, TOKEN, '[redacted][redacted]'],
    ['any bearer value', 'Authorization: Bearer abc.def', undefined, 'Authorization: Bearer [redacted]'],
    ['nothing to hide', 'plain text', TOKEN, 'plain text'],
    ['empty token leaves text', 'plain', '', 'plain'],
  ] as const)('%s', (_name, text, token, expected) => {
    expect(redactToken(text, token)).toBe(expected);
  });

  it('a token of a few characters does not mangle the words that contain it', () => {
    expect(redactToken('connect ECONNREFUSED 127.0.0.1:4010', 't')).toBe('connect ECONNREFUSED 127.0.0.1:4010');
    expect(redactToken('Authorization: Bearer t', 't')).toBe('Authorization: Bearer [redacted]');
  });
});

describe('maskMiddle', () => {
  it('always hides at least a third', () => {
    for (const value of ['1', '12', '123456', '1234567890123']) {
      const masked = maskMiddle(value, 3, 3);
      expect(masked).toHaveLength(value.length);
      expect(masked.split('').filter((c) => c === '*').length).toBeGreaterThanOrEqual(Math.ceil(value.length / 3));
    }
  });
});

describe('database URLs', () => {
  it.each([
    ['postgres://econsig:s3cr%40t-pw@db.example:5432/econsig', 'postgres://econsig@db.example:5432/econsig'],
    ['postgresql://u@h/db', 'postgresql://u@h/db'],
    ['postgres://:only-password@h/db', 'postgres://h/db'],
    ['not a url postgres://u:pw-here@h/db', 'not a url postgres://u@h/db'],
  ])('redactUrl(%s) → %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('cuts the password, as written and decoded, out of any text', () => {
    const url = 'postgres://econsig:s3cr%40t-pw@db.example/econsig';
    const text = 'connect failed for postgres://econsig:s3cr%40t-pw@db.example/econsig; password "s3cr@t-pw" rejected; other mysql://a:bcdef@x';
    const out = redactUrlsIn(text, url);
    expect(out).not.toContain('s3cr');
    expect(out).not.toContain('bcdef');
    expect(out).toContain('postgres://econsig@db.example/econsig');
  });
});
