import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { decodeSecret, signWebhook, usableSecret, verifyWebhook } from '../../../src/webhook/verify.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const body = JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato: 'C-1', status: 'APROVADO', nome: 'João' });
const nowSeconds = () => Math.floor(Date.now() / 1000);

function headersFor(id: string, ts: number, signature: string) {
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature };
}

describe('signWebhook against the standardwebhooks package', () => {
  it('makes the same signature as the reference library', () => {
    const ts = nowSeconds();
    const theirs = new Webhook(secret).sign('msg_1', new Date(ts * 1000), body);
    expect(signWebhook(secret, 'msg_1', ts, body)).toBe(theirs);
    expect(signWebhook(secret, 'msg_1', new Date(ts * 1000), Buffer.from(body))).toBe(theirs);
  });

  it('is verified by the reference library', () => {
    const ts = nowSeconds();
    const sig = signWebhook(secret, 'msg_2', ts, body);
    expect(new Webhook(secret).verify(body, headersFor('msg_2', ts, sig))).toMatchObject({ idContrato: 'C-1' });
  });

  it('is rejected by the reference library once the body is tampered', () => {
    const ts = nowSeconds();
    const sig = signWebhook(secret, 'msg_3', ts, body);
    expect(() => new Webhook(secret).verify(body.replace('APROVADO', 'REPROVADO'), headersFor('msg_3', ts, sig))).toThrow();
  });
});

describe('verifyWebhook', () => {
  const ts = 1_700_000_000;
  const ref = new Webhook(secret);
  const good = ref.sign('msg_x', new Date(ts * 1000), body);
  const other = `whsec_${randomBytes(24).toString('base64')}`;

  const cases: { name: string; headers: Record<string, string>; body?: string; now?: number; secret?: string | string[]; reason: string | null }[] = [
    { name: 'reference signature', headers: headersFor('msg_x', ts, good), reason: null },
    { name: 'one of several signatures (rotation)', headers: headersFor('msg_x', ts, `v1,AAAA v1a,zzz ${good}`), reason: null },
    { name: 'one of several secrets', headers: headersFor('msg_x', ts, good), secret: [other, secret], reason: null },
    { name: 'upper-case header names', headers: { 'Webhook-Id': 'msg_x', 'Webhook-Timestamp': String(ts), 'Webhook-Signature': good }, reason: null },
    { name: '299 s old', headers: headersFor('msg_x', ts, good), now: ts + 299, reason: null },
    { name: '300 s in the future', headers: headersFor('msg_x', ts, good), now: ts - 300, reason: null },
    { name: 'tampered body', headers: headersFor('msg_x', ts, good), body: body.replace('C-1', 'C-2'), reason: 'bad-signature' },
    { name: 'other id', headers: headersFor('msg_y', ts, good), reason: 'bad-signature' },
    { name: 'other timestamp', headers: headersFor('msg_x', ts + 1, good), now: ts + 1, reason: 'bad-signature' },
    { name: 'wrong secret', headers: headersFor('msg_x', ts, good), secret: other, reason: 'bad-signature' },
    { name: 'only v1a signatures', headers: headersFor('msg_x', ts, good.replace('v1,', 'v1a,')), reason: 'bad-signature' },
    { name: 'truncated signature', headers: headersFor('msg_x', ts, good.slice(0, -2)), reason: 'bad-signature' },
    { name: 'stale: 301 s old', headers: headersFor('msg_x', ts, good), now: ts + 301, reason: 'stale-timestamp' },
    { name: 'stale: 301 s ahead', headers: headersFor('msg_x', ts, good), now: ts - 301, reason: 'stale-timestamp' },
    { name: 'stale and tampered is a bad signature', headers: headersFor('msg_x', ts, good), body: '{}', now: ts + 9999, reason: 'bad-signature' },
    { name: 'missing signature', headers: { 'webhook-id': 'msg_x', 'webhook-timestamp': String(ts) }, reason: 'missing-headers' },
    { name: 'missing id', headers: { 'webhook-timestamp': String(ts), 'webhook-signature': good }, reason: 'missing-headers' },
    { name: 'empty timestamp', headers: { ...headersFor('msg_x', ts, good), 'webhook-timestamp': '' }, reason: 'missing-headers' },
    { name: 'non-numeric timestamp', headers: { ...headersFor('msg_x', ts, good), 'webhook-timestamp': '2024-01-01T00:00:00Z' }, reason: 'bad-timestamp' },
  ];

  it.each(cases)('$name → $reason', (c) => {
    const result = verifyWebhook({ secret: c.secret ?? secret, headers: c.headers, body: c.body ?? body, nowSeconds: c.now ?? ts });
    expect(result.ok ? null : result.reason).toBe(c.reason);
  });

  it('says "valid signature but timestamp outside the 5-minute window" for a stale delivery', () => {
    const r = verifyWebhook({ secret, headers: headersFor('msg_x', ts, good), body, nowSeconds: ts + 3600 });
    expect(r).toMatchObject({ ok: false, webhookId: 'msg_x' });
    expect(!r.ok && r.message).toContain('valid signature but timestamp outside the 5-minute window');
    expect(!r.ok && r.message).toContain('3600 s old');
  });

  it('names the missing headers', () => {
    const r = verifyWebhook({ secret, headers: {}, body, nowSeconds: ts });
    expect(!r.ok && r.message).toBe('missing headers: webhook-id, webhook-timestamp, webhook-signature');
  });

  it('verifies raw bytes, not a re-serialised body', () => {
    const raw = Buffer.from('{"a":1,  "b":"ção"}', 'utf8');
    const sig = ref.sign('m', new Date(ts * 1000), raw.toString('utf8'));
    expect(verifyWebhook({ secret, headers: headersFor('m', ts, sig), body: raw, nowSeconds: ts }).ok).toBe(true);
    const reserialised = JSON.stringify(JSON.parse(raw.toString('utf8')));
    expect(verifyWebhook({ secret, headers: headersFor('m', ts, sig), body: reserialised, nowSeconds: ts }).ok).toBe(false);
  });

  it('accepts a Uint8Array view into a larger buffer', () => {
    const big = Buffer.concat([Buffer.from('xxxx'), Buffer.from(body), Buffer.from('yyyy')]);
    const view = new Uint8Array(big.buffer, big.byteOffset + 4, Buffer.byteLength(body));
    expect(verifyWebhook({ secret, headers: headersFor('msg_x', ts, good), body: view, nowSeconds: ts }).ok).toBe(true);
  });
});

describe('decodeSecret', () => {
  it('base64-decodes after whsec_', () => {
    expect(decodeSecret('whsec_aGVsbG8=').toString()).toBe('hello');
  });
  it('uses a raw secret without prefix as UTF-8 bytes', () => {
    expect(decodeSecret('plain-secret').toString()).toBe('plain-secret');
    const ts = 1_700_000_000;
    const sig = signWebhook('plain-secret', 'm', ts, body);
    expect(new Webhook(Buffer.from('plain-secret'), { format: 'raw' }).sign('m', new Date(ts * 1000), body)).toBe(sig);
  });
  it.each(['', 'whsec_', 'whsec_not base64!'])('rejects %j', (s) => {
    expect(() => decodeSecret(s)).toThrow();
  });
});

describe('usableSecret', () => {
  it('gives back a secret that signs; one that cannot is a usage error naming where it came from', () => {
    expect(usableSecret({ value: secret, source: '--secret' }, 'hint')).toBe(secret);
    expect(() => usableSecret({ value: 'whsec_@@@', source: 'ECONSIG_WEBHOOK_SECRET' }, 'hint')).toThrow(UsageError);
    expect(() => usableSecret({ value: 'whsec_@@@', source: 'ECONSIG_WEBHOOK_SECRET' }, 'hint')).toThrow(/ECONSIG_WEBHOOK_SECRET is unusable: .*not valid base64/);
  });
});

describe('module surface', () => {
  it('DEFAULT_TOLERANCE_SECONDS is internal (nothing outside uses it)', async () => {
    const names = Object.keys(await import('../../../src/webhook/verify.js'));
    expect(names).not.toContain('DEFAULT_TOLERANCE_SECONDS');
    expect(names).toEqual(expect.arrayContaining(['decodeSecret', 'signWebhook', 'verifyWebhook']));
  });
});
