import { describe, expect, it } from 'vitest';
import { AuthError, UsageError } from '../../../src/errors.js';
import { resolveAuthPlan, type AuthPlanInput } from '../../../src/settings/auth-plan.js';
import { SETTING_KEYS, defaultSettings, type SettingKey } from '../../../src/settings/keys.js';
import type { SettingSource } from '../../../src/settings/settings.js';

const sources = Object.fromEntries(SETTING_KEYS.map((k) => [k, 'default'])) as Record<SettingKey, SettingSource>;
const oauthValues = {
  ...defaultSettings('homolog'),
  'auth.method': 'client-credentials' as const,
  'auth.token-url': 'https://auth.example/oauth2/token',
  'auth.client-id': 'client-1',
};

function input(over: Partial<AuthPlanInput>): AuthPlanInput {
  return { profile: 'homolog', env: {}, values: defaultSettings('homolog'), sources, token: undefined, storedSecret: undefined, ...over };
}

describe('resolveAuthPlan: which credentials a run uses', () => {
  it('ECONSIG_TOKEN wins even over a client-credentials profile with a secret', () => {
    const plan = resolveAuthPlan(input({ values: oauthValues, storedSecret: 's', token: { token: 't', source: 'env' } }));
    expect(plan).toEqual({ method: 'token', token: { token: 't', source: 'env' } });
  });
  it('a token profile uses its stored token', () => {
    const token = { token: 't', source: 'file' as const, path: '/h/config.json' };
    expect(resolveAuthPlan(input({ token }))).toEqual({ method: 'token', token });
  });
  it('client-credentials with the stored secret and the profile\'s settings', () => {
    expect(resolveAuthPlan(input({ values: oauthValues, storedSecret: 'stored' }))).toEqual({
      method: 'client-credentials',
      credentials: { tokenUrl: oauthValues['auth.token-url'], clientId: 'client-1', clientSecret: 'stored', clientAuth: 'basic' },
      secretSource: 'file',
      settingsSource: 'config',
    });
  });
  it('ECONSIG_CLIENT_SECRET switches a token profile to client credentials and wins over the stored secret', () => {
    const values = { ...defaultSettings('homolog'), 'auth.token-url': 'https://a/t', 'auth.client-id': 'ci', 'auth.scope': 'x y' };
    const plan = resolveAuthPlan(input({ values, sources: { ...sources, 'auth.token-url': 'env' }, env: { ECONSIG_CLIENT_SECRET: 'from-env' }, storedSecret: 'stored' }));
    expect(plan).toMatchObject({ method: 'client-credentials', credentials: { clientSecret: 'from-env', scope: 'x y' }, secretSource: 'env', settingsSource: 'env' });
  });
  it('no token URL: a usage error naming the setting and its variable', () => {
    const values = { ...oauthValues, 'auth.token-url': undefined };
    expect(() => resolveAuthPlan(input({ values, storedSecret: 's' }))).toThrow(UsageError);
    expect(() => resolveAuthPlan(input({ values, storedSecret: 's' }))).toThrow(/auth.token-url \(env ECONSIG_TOKEN_URL\)/);
  });
  it('no secret: exit 3 with the login command for the profile', () => {
    try {
      resolveAuthPlan(input({ values: oauthValues }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).hint).toContain('econsig auth login --client-credentials --token-url <url> --client-id <id> --profile homolog');
    }
  });
});
