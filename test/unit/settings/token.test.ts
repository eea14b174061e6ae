import { describe, expect, it } from 'vitest';
import { AuthError } from '../../../src/errors.js';
import {
  decodeJwtExpiry,
  describeToken,
  requireToken,
  resolveToken,
  tokenExpiry,
} from '../../../src/settings/token.js';

function jwt(payload: unknown): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.c2lnbmF0dXJl`;
}

const now = new Date('2026-03-01T12:00:00Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

describe('resolveToken', () => {
  const path = '/h/config.json';
  it.each([
    [{ ECONSIG_TOKEN: 'env-token' }, 'stored', { token: 'env-token', source: 'env' }],
    [{ ECONSIG_TOKEN: '  env-token\n' }, undefined, { token: 'env-token', source: 'env' }],
    [{ ECONSIG_TOKEN: '' }, 'stored', { token: 'stored', source: 'file', path }],
    [{ ECONSIG_TOKEN: '   ' }, 'stored', { token: 'stored', source: 'file', path }],
    [{}, 'stored', { token: 'stored', source: 'file', path }],
    [{}, undefined, undefined],
    [{}, '', undefined],
  ])('env %j, stored %j', (env, stored, expected) => {
    expect(resolveToken({ env, stored, path })).toEqual(expected);
  });
});

describe('requireToken', () => {
  it('returns the token when present', () => {
    expect(requireToken({ token: 't', source: 'env' }, 'default')).toEqual({ token: 't', source: 'env' });
  });
  it.each([
    ['default', 'Run `econsig auth login` or set ECONSIG_TOKEN.'],
    ['homolog', 'Run `econsig auth login --profile homolog` or set ECONSIG_TOKEN.'],
  ])('without one, profile %s: AuthError exit 3 with hint', (profile, hint) => {
    try {
      requireToken(undefined, profile);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AuthError);
      expect((e as AuthError).exitCode).toBe(3);
      expect((e as AuthError).message).toContain(`"${profile}"`);
      expect((e as AuthError).hint).toBe(hint);
    }
  });
});

describe('decodeJwtExpiry', () => {
  it.each([
    ['opaque token', 'abcdef0123456789', undefined],
    ['three parts, not base64 JSON', 'a.b.c', undefined],
    ['JWT without exp', jwt({ sub: 'x' }), undefined],
    ['JWT with string exp', jwt({ exp: '1700000000' }), undefined],
    ['JWT payload null', jwt(null), undefined],
    ['JWT with exp', jwt({ exp: 1_700_000_000 }), new Date(1_700_000_000_000)],
  ])('%s', (_name, token, expected) => {
    expect(decodeJwtExpiry(token)).toEqual(expected);
  });
});

describe('tokenExpiry relative to now', () => {
  it.each([
    ['expired an hour ago', -3600, true, true],
    ['expires in an hour', 3600, false, true],
    ['expires in 23 h 59 min', 86_340, false, true],
    ['expires in 25 h', 90_000, false, false],
  ])('%s', (_name, offset, expired, warn) => {
    const token = jwt({ exp: seconds(now) + offset });
    expect(tokenExpiry(token, now)).toEqual({
      expiresAt: new Date((seconds(now) + offset) * 1000),
      expired,
      warn,
    });
  });
  it('is undefined for an opaque token', () => {
    expect(tokenExpiry('opaque-token-0123456789', now)).toBeUndefined();
  });
});

describe('describeToken', () => {
  it('reports no token', () => {
    expect(describeToken(undefined, now)).toEqual({ present: false, masked: null, source: null });
  });
  it('reports a stored JWT with path and expiry, never the token', () => {
    const token = jwt({ exp: seconds(now) - 60 });
    const report = describeToken({ token, source: 'file', path: '/h/config.json' }, now);
    expect(report).toEqual({
      present: true,
      masked: `****${token.slice(-4)}`,
      source: 'file',
      path: '/h/config.json',
      expiresAt: new Date((seconds(now) - 60) * 1000).toISOString(),
      expired: true,
      warn: true,
    });
    expect(JSON.stringify(report)).not.toContain(token);
  });
  it('reports an env token without a path', () => {
    expect(describeToken({ token: 'opaque-token-0123456789', source: 'env' }, now)).toEqual({
      present: true,
      masked: '****6789',
      source: 'env',
    });
  });
});
