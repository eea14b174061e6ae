import { describe, expect, it } from 'vitest';
import { checkCallbackAuth, createAuthenticator, defaultScheme, type CallbackAuth } from '../../../src/webhook/auth.js';
import { signWebhook } from '../../../src/webhook/verify.js';
import { say } from '../../../src/i18n/index.js';

const body = Buffer.from('{"idContrato":"C-1","status":"APROVADO"}');
const now = 1_800_000_000;
const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('defaultScheme', () => {
  it.each([
    [undefined, true, 'standard-webhooks'],
    [undefined, false, 'none'],
    ['bearer', false, 'bearer'],
    ['none', true, 'none'],
  ] as const)('named %s, secret %s → %s', (named, hasSecret, want) => {
    expect(defaultScheme(named, hasSecret)).toBe(want);
  });
});

describe('checkCallbackAuth', () => {
  it.each<[CallbackAuth, string | undefined]>([
    [{ scheme: 'none' }, undefined],
    [{ scheme: 'bearer' }, '--auth bearer needs a secret.'],
    [{ scheme: 'api-key', secret: [] }, '--auth api-key needs a secret.'],
    [{ scheme: 'basic', secret: 'nocolon' }, '--auth basic needs a secret of the form user:password.'],
    [{ scheme: 'basic', secret: 'u:p' }, undefined],
    [{ scheme: 'api-key', secret: 'k', apiKeyHeader: 'bad header' }, 'webhook.api-key-header "bad header" is not a valid header name.'],
  ])('%j → %s', (auth, want) => {
    const problem = checkCallbackAuth(auth);
    expect(problem && say('en', problem)).toBe(want);
  });
});

describe('createAuthenticator', () => {
  const whsec = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const signed = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(now), 'webhook-signature': signWebhook(whsec, 'msg_1', now, body) };
  const cases: [string, CallbackAuth, Record<string, string>, string | true][] = [
    ['none accepts anything', { scheme: 'none' }, {}, true],
    ['standard-webhooks: right signature', { scheme: 'standard-webhooks', secret: whsec }, signed, true],
    ['standard-webhooks: no headers', { scheme: 'standard-webhooks', secret: whsec }, {}, 'missing-headers'],
    ['standard-webhooks: other secret', { scheme: 'standard-webhooks', secret: 'whsec_b3RoZXJzZWNyZXQ=' }, signed, 'bad-signature'],
    ['bearer: right', { scheme: 'bearer', secret: 's3cret-token' }, { authorization: 'Bearer s3cret-token' }, true],
    ['bearer: scheme in any case', { scheme: 'bearer', secret: 's3cret-token' }, { authorization: 'bearer s3cret-token' }, true],
    ['bearer: wrong', { scheme: 'bearer', secret: 's3cret-token' }, { authorization: 'Bearer s3cret-tokeN' }, 'wrong-credential'],
    ['bearer: a prefix of the secret', { scheme: 'bearer', secret: 's3cret-token' }, { authorization: 'Bearer s3cret' }, 'wrong-credential'],
    ['bearer: missing', { scheme: 'bearer', secret: 's3cret-token' }, {}, 'missing-credential'],
    ['bearer: Basic instead', { scheme: 'bearer', secret: 's3cret-token' }, { authorization: basic('s3cret-token') }, 'missing-credential'],
    ['bearer: rotation, second secret', { scheme: 'bearer', secret: ['old-one', 'new-one'] }, { authorization: 'Bearer new-one' }, true],
    ['api-key: default header', { scheme: 'api-key', secret: 'k-123' }, { 'x-api-key': 'k-123' }, true],
    ['api-key: named header', { scheme: 'api-key', secret: 'k-123', apiKeyHeader: 'API-CLIENT-KEY' }, { 'api-client-key': 'k-123' }, true],
    ['api-key: other header', { scheme: 'api-key', secret: 'k-123', apiKeyHeader: 'API-CLIENT-KEY' }, { 'x-api-key': 'k-123' }, 'missing-credential'],
    ['api-key: wrong', { scheme: 'api-key', secret: 'k-123' }, { 'x-api-key': 'k-124' }, 'wrong-credential'],
    ['basic: right', { scheme: 'basic', secret: 'bmp:pa:ss' }, { authorization: basic('bmp:pa:ss') }, true],
    ['basic: wrong password', { scheme: 'basic', secret: 'bmp:pass' }, { authorization: basic('bmp:pasS') }, 'wrong-credential'],
    ['basic: not base64', { scheme: 'basic', secret: 'bmp:pass' }, { authorization: 'Basic %%%' }, 'wrong-credential'],
    ['basic: missing', { scheme: 'basic', secret: 'bmp:pass' }, {}, 'missing-credential'],
  ];
  it.each(cases)('%s', (_name, auth, headers, want) => {
    const result = createAuthenticator(auth)(headers, body, now);
    if (want === true) expect(result).toEqual({ ok: true, verified: auth.scheme === 'none' ? null : true });
    else expect(result).toMatchObject({ ok: false, reason: want });
  });

  it('never puts the secret in a message', () => {
    const secret = 'a-very-secret-value';
    for (const scheme of ['bearer', 'api-key', 'basic'] as const) {
      const s = scheme === 'basic' ? `u:${secret}` : secret;
      const result = createAuthenticator({ scheme, secret: s })({ authorization: 'Bearer nope', 'x-api-key': 'nope' }, body, now);
      expect(JSON.stringify(result)).not.toContain(secret);
    }
  });
});
