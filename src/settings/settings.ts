/**
 * Effective settings for one run: profile, every setting with its source, and the token.
 * Precedence (docs/cli-contract.md "Environment"): flag, then environment, then profile
 * config, then default. `resolveSettings` is the one entry point for commands.
 */
import { durationMs } from '../duration.js';
import { msg } from '../i18n/index.js';
import { UsageError } from '../errors.js';
import { openConfigFile, type ConfigFile, type StoredSettings } from './config-file.js';
import { homePaths, resolveHome, type HomePaths } from './home.js';
import {
  DEFAULT_PROFILE,
  SETTING_KEYS,
  assertProfileName,
  defaultSettings,
  parseSettingValue,
  type SettingKey,
  type Settings,
} from './keys.js';
import { resolveToken, type ResolvedToken } from './token.js';
import { type CallbackAuthScheme, defaultScheme } from '../webhook/auth.js';
import { serviceIdentity } from '../service/base-url.js';

export type SettingSource = 'flag' | 'env' | 'config' | 'default';
export type Env = Record<string, string | undefined>;

/** Environment variables that set a setting (docs/cli-contract.md "Environment"). */
export const SETTING_ENV: Partial<Record<SettingKey, string>> = {
  'base-url': 'ECONSIG_BASE_URL',
  'service-id': 'ECONSIG_SERVICE_ID',
  'database-url': 'ECONSIG_DATABASE_URL',
  'webhook.secret': 'ECONSIG_WEBHOOK_SECRET',
  'auth.token-url': 'ECONSIG_TOKEN_URL',
  'auth.client-id': 'ECONSIG_CLIENT_ID',
  'tls.cert': 'ECONSIG_TLS_CERT',
  'tls.key': 'ECONSIG_TLS_KEY',
  'tls.pfx': 'ECONSIG_TLS_PFX',
  'tls.ca': 'ECONSIG_TLS_CA',
  'store.payload-retention': 'ECONSIG_PAYLOAD_RETENTION',
};

export interface ResolvedProfile {
  name: string;
  source: SettingSource;
}

/** `--profile` > ECONSIG_PROFILE > stored current profile > `default`. */
export function resolveProfile(options: {
  env: Env;
  flag: string | undefined;
  current: string | undefined;
}): ResolvedProfile {
  if (options.flag !== undefined && options.flag !== '') {
    return { name: assertProfileName(options.flag, '--profile'), source: 'flag' };
  }
  const fromEnv = options.env.ECONSIG_PROFILE;
  if (fromEnv !== undefined && fromEnv !== '') {
    return { name: assertProfileName(fromEnv, 'ECONSIG_PROFILE'), source: 'env' };
  }
  if (options.current !== undefined) {
    return { name: assertProfileName(options.current, msg('config.storedCurrentProfile')), source: 'config' };
  }
  return { name: DEFAULT_PROFILE, source: 'default' };
}

export interface ComputedSettings {
  values: Settings;
  sources: Record<SettingKey, SettingSource>;
}

/**
 * Layer the settings of `profile`: flags over env over stored config over defaults.
 * Env and stored values are validated; a bad one is a UsageError naming where it sits.
 */
export function computeSettings(options: {
  profile: string;
  env: Env;
  flags: Partial<Settings>;
  stored: StoredSettings;
  configPath: string;
}): ComputedSettings {
  const values = defaultSettings(options.profile);
  const sources = Object.fromEntries(SETTING_KEYS.map((key) => [key, 'default'])) as Record<SettingKey, SettingSource>;
  const assign = (key: SettingKey, value: unknown, source: SettingSource): void => {
    (values as unknown as Record<SettingKey, unknown>)[key] = value;
    sources[key] = source;
  };

  for (const key of SETTING_KEYS) {
    const flag = options.flags[key];
    const envName = SETTING_ENV[key];
    const fromEnv = envName === undefined ? undefined : options.env[envName];
    const stored = Object.hasOwn(options.stored, key) ? options.stored[key] : undefined;
    if (flag !== undefined) {
      assign(key, flag, 'flag');
    } else if (envName !== undefined && fromEnv !== undefined && fromEnv !== '') {
      assign(key, parseSettingValue(key, fromEnv, envName), 'env');
    } else if (stored !== undefined && stored !== null) {
      const origin = msg('config.fromProfile', { profile: options.profile, path: options.configPath });
      assign(key, parseSettingValue(key, String(stored), origin), 'config');
    }
  }
  return { values, sources };
}

/** Everything a command needs to know about where it is pointed and with what. */
export interface ResolvedSettings extends ComputedSettings {
  profile: ResolvedProfile;
  paths: HomePaths;
  /** ECONSIG_TOKEN or the profile's stored token; undefined when there is none. */
  token: ResolvedToken | undefined;
  /** The opened config file, for commands that write (config set, auth login). */
  file: ConfigFile;
}

/** The global flags that choose settings (--profile, --base-url), as parsed. */
export interface SettingsFlags {
  profile: string | undefined;
  baseUrl: string | undefined;
}

export interface ResolveSettingsOptions {
  env: Env;
  globals: SettingsFlags;
  /** Defaults to resolveHome(env). */
  home?: string;
  /** Command flags that map to settings (e.g. submit --request-timeout), already parsed. */
  flags?: Partial<Settings>;
}

/** The config file of the home, opened, and the profile in force. */
export interface OpenedProfile {
  profile: ResolvedProfile;
  paths: HomePaths;
  file: ConfigFile;
}

/**
 * Open the home's config file and pick the profile, without validating any setting:
 * `config set`/`unset` must still work to repair a bad stored value.
 */
export async function openProfile(options: Omit<ResolveSettingsOptions, 'flags'>): Promise<OpenedProfile> {
  const paths = homePaths(options.home ?? resolveHome(options.env));
  const file = await openConfigFile(paths.home);
  const profile = resolveProfile({ env: options.env, flag: options.globals.profile, current: file.currentProfile() });
  return { profile, paths, file };
}

/**
 * Open the home's config file and resolve profile, settings (with sources) and token.
 * Use `requireToken(result.token, result.profile.name)` before any authenticated call.
 */
export async function resolveSettings(options: ResolveSettingsOptions): Promise<ResolvedSettings> {
  const { profile, paths, file } = await openProfile(options);
  const flags: Partial<Settings> = { ...options.flags };
  if (options.globals.baseUrl !== undefined) flags['base-url'] = options.globals.baseUrl.replace(/\/+$/, '');
  const computed = computeSettings({
    profile: profile.name,
    env: options.env,
    flags,
    stored: file.settings(profile.name),
    configPath: file.path,
  });
  const token = resolveToken({ env: options.env, stored: file.token(profile.name), path: file.path });
  return { ...computed, profile, paths, token, file };
}

/** store.payload-retention in milliseconds: how long a delivery's body is kept (docs/privacy.md). */
export function payloadRetentionMs(values: Pick<Settings, 'store.payload-retention'>): number {
  // Every source was parsed as a duration (keys.ts), the default too.
  return durationMs(values['store.payload-retention']) as number;
}

/** The base URL in force; only the default profile has one by default (the sandbox). */
export function requireBaseUrl(settings: Pick<ResolvedSettings, 'values' | 'profile'>): string {
  const url = settings.values['base-url'];
  if (url !== undefined) return url;
  const name = settings.profile.name;
  throw new UsageError(msg('config.noBaseUrl', { profile: name }), msg('config.noBaseUrlHint', { profile: name }));
}

/**
 * The service the guard keys a proposal on (docs/cli-contract.md "The guard"): the profile's
 * `service-id` when set, else the base URL's canonical identity, so every spelling of one
 * URL is one service.
 */
export function guardService(settings: Pick<ResolvedSettings, 'values' | 'profile'>): string {
  return settings.values['service-id'] ?? serviceIdentity(requireBaseUrl(settings));
}

/** The listener's settings (watch, submit --wait) as the webhook server takes them. */
export interface ListenerSettings {
  host: string;
  port: number;
  path: string;
  secret: { value: string; source: string } | undefined;
  /** Callback authentication: webhook.auth, else standard-webhooks with a secret and none without. */
  auth: { scheme: CallbackAuthScheme; named: boolean; apiKeyHeader: string };
  extractOptions: { idField?: string; statusField?: string };
}

export function listenerSettings(s: Pick<ResolvedSettings, 'values' | 'sources' | 'profile'>): ListenerSettings {
  const v = s.values;
  const secret = v['webhook.secret'];
  const source = {
    flag: '--secret',
    env: 'ECONSIG_WEBHOOK_SECRET',
    config: `webhook.secret of profile "${s.profile.name}"`,
    default: 'default',
  }[s.sources['webhook.secret']];
  return {
    host: v['webhook.host'],
    port: v['webhook.port'],
    path: v['webhook.path'].startsWith('/') ? v['webhook.path'] : `/${v['webhook.path']}`,
    secret: secret === undefined || secret === '' ? undefined : { value: secret, source },
    auth: {
      scheme: defaultScheme(v['webhook.auth'] as CallbackAuthScheme | undefined, secret !== undefined && secret !== ''),
      named: v['webhook.auth'] !== undefined,
      apiKeyHeader: v['webhook.api-key-header'],
    },
    extractOptions: {
      ...(v['webhook.id-field'] === undefined ? {} : { idField: v['webhook.id-field'] }),
      ...(v['webhook.status-field'] === undefined ? {} : { statusField: v['webhook.status-field'] }),
    },
  };
}
