import { describe, expect, it } from 'vitest';
import type { AccessToken, ClientCredentials } from '../../../src/service/oauth.js';
import { cacheEntry, clientCredentialsSource, isUsable, refreshTime, staticTokenSource, type CachedToken } from '../../../src/service/token-source.js';

const creds: ClientCredentials = { tokenUrl: 'https://auth.example/oauth2/token', clientId: 'id', clientSecret: 'secret-1234567', clientAuth: 'basic' };

describe('refreshTime: 80% of the life or 60 s before the end, the earlier; never before half the life', () => {
  it.each([
    [3600, 2880], // 80% (720 s before the end) is earlier than 60 s before
    [300, 240], // both rules agree
    [200, 140], // 60 s before is earlier
    [120, 60], // 60 s before = half
    [60, 30], // half-life floor
    [1.5, 0.75],
  ])('a token living %s s is renewed after %s s', (life, after) => {
    expect(refreshTime(0, life * 1000)).toBeCloseTo(after * 1000, 6);
  });
});

function tokenAt(obtainedAt: number, n: number, expiresIn: number | undefined = 1000): AccessToken {
  return { accessToken: `at-${n}-abcdefgh`, tokenType: 'Bearer', expiresIn, obtainedAt };
}

describe('isUsable', () => {
  const entry = cacheEntry(tokenAt(1_000, 1), creds);
  it.each([
    ['fresh', true, creds, 2_000],
    ['past the refresh time', false, creds, 1_000 + 800_001],
    ['another client id', false, { ...creds, clientId: 'other' }, 2_000],
    ['another token URL', false, { ...creds, tokenUrl: 'https://x/t' }, 2_000],
    ['another scope', false, { ...creds, scope: 'a' }, 2_000],
  ] as const)('%s → usable %s', (_name, usable, c, now) => {
    expect(isUsable(entry, c, now)).toBe(usable);
  });
  it('a token without expires_in is taken to live 5 minutes (renewed after 4)', () => {
    const e = cacheEntry({ ...tokenAt(0, 1), expiresIn: undefined }, creds);
    expect(e.expiresAt).toBeUndefined();
    expect(isUsable(e, creds, 3.9 * 60_000)).toBe(true);
    expect(isUsable(e, creds, 4 * 60_000)).toBe(false);
  });
});

describe('clientCredentialsSource', () => {
  function setup(options: { cache?: CachedToken } = {}) {
    let clock = 10_000;
    const fetches: Promise<unknown>[] = [];
    const saved: CachedToken[] = [];
    const source = clientCredentialsSource({
      credentials: creds,
      now: () => clock,
      loadCache: () => options.cache,
      saveCache: (e) => saved.push(e),
      fetchToken: () => {
        const n = fetches.length + 1;
        // Answered on a later turn: callers of this turn find the request in flight.
        const fetch = new Promise<void>((resolve) => setImmediate(resolve)).then(() => tokenAt(clock, n));
        fetches.push(fetch);
        return fetch;
      },
    });
    return {
      source,
      saved,
      fetched: () => fetches.length,
      /** Every token request so far has been answered. */
      answered: () => Promise.allSettled(fetches),
      advance: (ms: number) => (clock += ms),
    };
  }

  it('32 callers at once share one token request', async () => {
    const t = setup();
    const tokens = await Promise.all(Array.from({ length: 32 }, () => t.source.token()));
    expect(new Set(tokens)).toEqual(new Set(['at-1-abcdefgh']));
    expect(t.fetched()).toBe(1);
    expect(t.saved).toHaveLength(1);
  });

  it('reuses the token until its refresh time; then sends it while one more is fetched, once', async () => {
    const t = setup();
    await t.source.token();
    t.advance(790_000);
    expect(await t.source.token()).toBe('at-1-abcdefgh');
    t.advance(20_000);
    // Due for renewal, still valid: no caller waits, one fetch starts.
    const meanwhile = await Promise.all(Array.from({ length: 8 }, () => t.source.token()));
    expect(new Set(meanwhile)).toEqual(new Set(['at-1-abcdefgh']));
    expect(t.fetched()).toBe(2);
    await t.answered();
    expect(await t.source.token()).toBe('at-2-abcdefgh');
    expect(t.fetched()).toBe(2);
  });

  it('an expired token is never sent: callers wait for the new one', async () => {
    const t = setup();
    await t.source.token();
    t.advance(1_000_001);
    expect(await t.source.token()).toBe('at-2-abcdefgh');
  });

  it('a renewal that fails in the background is retried by the next caller once the token has ended', async () => {
    let calls = 0;
    let clock = 0;
    const fetches: Promise<unknown>[] = [];
    const source = clientCredentialsSource({
      credentials: creds,
      now: () => clock,
      fetchToken: () => {
        calls += 1;
        const fetch = calls === 2 ? Promise.reject(new Error('endpoint down')) : calls === 3 ? Promise.reject(new Error('still down')) : Promise.resolve(tokenAt(clock, calls));
        fetches.push(fetch);
        return fetch;
      },
    });
    expect(await source.token()).toBe('at-1-abcdefgh');
    clock = 900_000;
    expect(await source.token()).toBe('at-1-abcdefgh');
    // The renewal in the background has failed.
    await Promise.allSettled(fetches);
    expect(calls).toBe(2);
    clock = 1_000_000;
    await expect(source.token()).rejects.toThrow('still down');
  });

  it('starts from a usable cached token without a request', async () => {
    const cache = cacheEntry(tokenAt(9_000, 0), creds);
    const t = setup({ cache });
    expect(await t.source.token()).toBe(cache.accessToken);
    expect(t.fetched()).toBe(0);
  });

  it('after a 401, 32 requests holding the refused token cause one new token', async () => {
    const t = setup();
    const old = await t.source.token();
    const renewed = await Promise.all(Array.from({ length: 32 }, () => t.source.renew(old)));
    expect(new Set(renewed)).toEqual(new Set(['at-2-abcdefgh']));
    // A late 401 of the old token does not fetch a third.
    expect(await t.source.renew(old)).toBe('at-2-abcdefgh');
    expect(t.fetched()).toBe(2);
  });

  it('a failed fetch is not cached: the next call tries again', async () => {
    let calls = 0;
    const source = clientCredentialsSource({
      credentials: creds,
      fetchToken: async () => {
        calls += 1;
        if (calls === 1) throw new Error('down');
        return tokenAt(Date.now(), calls);
      },
    });
    await expect(source.token()).rejects.toThrow('down');
    expect(await source.token()).toBe('at-2-abcdefgh');
  });

  it('secrets() lists the client secret and every token handed out', async () => {
    const t = setup();
    const a = await t.source.token();
    const b = await t.source.renew(a);
    expect(t.source.secrets()).toEqual(['secret-1234567', a, b]);
  });

  it('a static token is never renewed', async () => {
    const s = staticTokenSource('tok');
    expect(await s.token()).toBe('tok');
    expect(await s.renew('tok')).toBeUndefined();
  });
});
