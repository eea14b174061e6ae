/**
 * How a profile authenticates (docs/cli-contract.md "Authentication for a real homologation"):
 * ECONSIG_TOKEN wins; else client credentials when `auth.method` is client-credentials or
 * ECONSIG_CLIENT_SECRET is set; else the stored static token. Pure: callers pass env,
 * settings and the stored secret.
 */
import { msg } from '../i18n/index.js';
import { AuthError, UsageError } from '../errors.js';
import type { ClientCredentials } from '../service/oauth.js';
import type { Settings, SettingKey } from './keys.js';
import type { SettingSource } from './settings.js';
import type { ResolvedToken } from './token.js';

export type AuthPlan =
  | { method: 'token'; token: ResolvedToken | undefined }
  | {
      method: 'client-credentials';
      credentials: ClientCredentials;
      /** Where the client secret came from. */
      secretSource: 'env' | 'file';
      /** ECONSIG_TOKEN_URL/… or the profile's settings. */
      settingsSource: 'env' | 'config';
    };

export interface AuthPlanInput {
  profile: string;
  env: Record<string, string | undefined>;
  values: Settings;
  sources: Record<SettingKey, SettingSource>;
  /** ECONSIG_TOKEN or the stored token (settings/token.ts resolveToken). */
  token: ResolvedToken | undefined;
  storedSecret: string | undefined;
}

function loginCommand(profile: string): string {
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  return `econsig auth login --client-credentials --token-url <url> --client-id <id>${flag}`;
}

/** The plan in force. Throws UsageError (2) for missing settings, AuthError (3) for a missing secret. */
export function resolveAuthPlan(input: AuthPlanInput): AuthPlan {
  const { env, values, profile } = input;
  if (input.token?.source === 'env') return { method: 'token', token: input.token };
  const envSecret = env.ECONSIG_CLIENT_SECRET?.trim() || undefined;
  if (values['auth.method'] !== 'client-credentials' && envSecret === undefined) return { method: 'token', token: input.token };

  const tokenUrl = values['auth.token-url'];
  const clientId = values['auth.client-id'];
  const missing = [
    ...(tokenUrl === undefined ? ['auth.token-url (env ECONSIG_TOKEN_URL)'] : []),
    ...(clientId === undefined ? ['auth.client-id (env ECONSIG_CLIENT_ID)'] : []),
  ];
  if (missing.length > 0 || tokenUrl === undefined || clientId === undefined) {
    // "auth.token-url ... and no auth.client-id ...": the joiner is said in the reader's language.
    const [first = '', second] = missing;
    const list = second === undefined ? first : msg('submit.oauthMissingTwo', { first, second });
    throw new UsageError(msg('submit.oauthIncomplete', { profile, missing: list }), msg('submit.oauthIncompleteHint', { login: loginCommand(profile) }));
  }
  const secret = envSecret ?? input.storedSecret;
  if (secret === undefined) {
    throw new AuthError(msg('submit.noClientSecret', { profile }), msg('submit.noClientSecretHint', { login: loginCommand(profile) }));
  }
  const settingsSource = input.sources['auth.token-url'] === 'env' || input.sources['auth.client-id'] === 'env' ? 'env' : 'config';
  return {
    method: 'client-credentials',
    credentials: {
      tokenUrl,
      clientId,
      clientSecret: secret,
      ...(values['auth.scope'] ? { scope: values['auth.scope'] } : {}),
      clientAuth: values['auth.client-auth'],
    },
    secretSource: envSecret === undefined ? 'file' : 'env',
    settingsSource,
  };
}
