import { describe, expect, it } from 'vitest';
import { isSecretName, maskMiddle, maskSecret, redactConnectionString, redactConnectionStringIn, redactSecretFields, redactToken } from '../../src/redact.js';

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
    ['postgres://econsig@db/econsig?password=S3cret-pw9&sslmode=require', 'postgres://econsig@db/econsig?password=[redacted]&sslmode=require'],
    ['postgres://u@h/db?sslpassword=k3y-pass&application_name=x', 'postgres://u@h/db?sslpassword=[redacted]&application_name=x'],
    ['postgres://u@h/db?sslkey=/etc/econsig/client.key&sslcert=/etc/econsig/client.pem', 'postgres://u@h/db?sslkey=[redacted]&sslcert=/etc/econsig/client.pem'],
    ['postgres://u@h/db?sslrootcert=-----BEGIN%20CERTIFICATE-----%0AMIIB', 'postgres://u@h/db?sslrootcert=[redacted]'],
    ['postgres://u@h/db?sslcert=-----BEGIN+CERTIFICATE-----', 'postgres://u@h/db?sslcert=[redacted]'],
    ['postgres://u:pw-in-user-info@h/db?PASSWORD=also&api_token=t0k3n&sslmode=disable', 'postgres://u@h/db?PASSWORD=[redacted]&api_token=[redacted]&sslmode=disable'],
    ['postgres://u@h/db?sslmode=verify-full', 'postgres://u@h/db?sslmode=verify-full'],
  ])('redactConnectionString(%s) → %s', (url, shown) => {
    expect(redactConnectionString(url)).toBe(shown);
  });

  it('cuts the password, as written and decoded, out of any text', () => {
    const url = 'postgres://econsig:s3cr%40t-pw@db.example/econsig';
    const text = 'connect failed for postgres://econsig:s3cr%40t-pw@db.example/econsig; password "s3cr@t-pw" rejected; other mysql://a:bcdef@x';
    const out = redactConnectionStringIn(text, url);
    expect(out).not.toContain('s3cr');
    expect(out).not.toContain('bcdef');
    expect(out).toContain('postgres://econsig@db.example/econsig');
  });

  it('cuts every secret parameter, as written, URL-decoded and form-decoded, out of any text', () => {
    const url = 'postgres://econsig@db/econsig?password=p%40ss+word9&sslkey=-----BEGIN+PRIVATE+KEY-----%0AMIIEvQ&sslmode=require';
    const text = [
      `open ${url}`,
      "password authentication failed: 'p@ss word9'",
      "ENOENT: no such file or directory, open '-----BEGIN PRIVATE KEY-----\nMIIEvQ'",
      'p%40ss+word9 and p@ss+word9',
    ].join('\n');
    const out = redactConnectionStringIn(text, url);
    for (const secret of ['p%40ss', 'p@ss', 'MIIEvQ']) expect(out).not.toContain(secret);
    expect(out).toContain('sslmode=require');
  });
});

describe('secret fields', () => {
  it.each([
    ['password', true], ['sslpassword', true], ['passfile', true], ['access_token', true], ['refresh_token', true], ['id_token', true],
    ['client_secret', true], ['sslkey', true], ['api_key', true], ['apiKey', true], ['credentials', true],
    ['token_type', false], ['sslmode', false], ['sslcert', false], ['user', false], ['host', false], ['error', false], ['error_description', false], ['scope', false],
  ])('isSecretName(%s) → %s', (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });

  it.each([
    ['a form', 'access_token=abc.def&token_type=bearer&scope=x', 'access_token=[redacted]&token_type=bearer&scope=x'],
    ['JSON', '{"access_token": "abc\\"def", "token_type":"bearer","expires_in":60}', '{"access_token": "[redacted]", "token_type":"bearer","expires_in":60}'],
    ['libpq key=value', "host=db user=u password='a b c' sslmode=require", "host=db user=u password=[redacted] sslmode=require"],
    ['a URL in a sentence', 'cannot reach postgres://u@h/db?sslpassword=xyz:1 now', 'cannot reach postgres://u@h/db?sslpassword=[redacted] now'],
    ['nothing secret', 'Key (id_contrato)=(C-1) already exists; mode=fast', 'Key (id_contrato)=(C-1) already exists; mode=fast'],
  ])('%s', (_name, text, expected) => {
    expect(redactSecretFields(text)).toBe(expected);
  });
});
