/**
 * The settings a profile can hold: their names, defaults, validation and masking.
 * Pure: no file, env or clock access, so every rule has a one-line test.
 */
import { durationMs } from '../duration.js';
import { suggest } from '../suggest.js';
import { maskSecret, redactConnectionString } from '../redact.js';
import { UsageError } from '../errors.js';
import { type MessageKey, type Message, msg } from '../i18n/index.js';
import { CALLBACK_AUTH_SCHEMES } from '../webhook/auth.js';
import { baseUrlProblem } from '../service/base-url.js';

/** The built-in sandbox, so a new user has a working setup (task: default profile). */
export const SANDBOX_BASE_URL = 'http://127.0.0.1:4010';
export const DEFAULT_PROFILE = 'default';

/** Every effective setting, typed. Keys are the names `econsig config` uses. */
export interface Settings {
  'base-url': string | undefined;
  /** The service's name for the guard, when two base URLs are one service (docs/cli-contract.md "The guard"). */
  'service-id': string | undefined;
  'database-url': string | undefined;
  'webhook.port': number;
  'webhook.host': string;
  'webhook.path': string;
  'webhook.secret': string | undefined;
  'webhook.auth': string | undefined;
  'webhook.api-key-header': string;
  'request-timeout': number;
  'wait-timeout': number;
  concurrency: number;
  'webhook.id-field': string | undefined;
  'webhook.status-field': string | undefined;
  'auth.method': AuthMethod;
  'auth.token-url': string | undefined;
  'auth.client-id': string | undefined;
  'auth.scope': string | undefined;
  'auth.client-auth': ClientAuth;
  'tls.cert': string | undefined;
  'tls.key': string | undefined;
  'tls.pfx': string | undefined;
  'tls.ca': string | undefined;
  'receiver-url': string | undefined;
  /** A duration (src/duration.ts): delivery bodies older than it are dropped (docs/privacy.md). */
  'store.payload-retention': string;
}
/** `token`: a static bearer token; `client-credentials`: OAuth2 (RFC 6749 §4.4). */
export type AuthMethod = 'token' | 'client-credentials';
/** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). */
export type ClientAuth = 'basic' | 'post';
export type SettingKey = keyof Settings;
export type SettingValue = Settings[SettingKey];

interface SettingSpec {
  /** What `config set` accepts, shown in every error about this key. */
  example: string;
  secret: boolean;
  /** How a secret value is shown (config get/list); default: masked to its last 4 characters. */
  display?: (value: string) => string;
  /** Parse and check a value; returns why it is refused (without the key) when bad. */
  parse(raw: string): { value: string | number } | { error: Message };
}

function parseNumber(raw: string, min: number, max: number, integer: boolean, what: MessageKey) {
  const text = raw.trim();
  const n = Number(text);
  const ok = text !== '' && Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n));
  return ok ? { value: n } : { error: msg(what) };
}

function parseHttpUrl(raw: string) {
  try {
    const url = new URL(raw.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return { value: raw.trim().replace(/\/+$/, '') };
  } catch {
    // fall through to the message below
  }
  return { error: msg('config.expectUrl') };
}

/** A base URL names a service: a query or fragment no request carries is refused (service/base-url.ts). */
function parseServiceUrl(raw: string) {
  const parsed = parseHttpUrl(raw);
  if ('error' in parsed) return parsed;
  const problem = baseUrlProblem(parsed.value);
  if (problem === 'query') return { error: msg('config.expectNoQuery') };
  if (problem === 'fragment') return { error: msg('config.expectNoFragment') };
  return parsed;
}

function parseChoice<T extends string>(choices: readonly T[]) {
  return (raw: string) => {
    const text = raw.trim().toLowerCase();
    return (choices as readonly string[]).includes(text) ? { value: text } : { error: msg('config.expectOneOf', { choices: choices.join(', ') }) };
  };
}

function parseFilePath(raw: string) {
  const text = raw.trim();
  return text === '' ? { error: msg('config.expectFile') } : { value: text };
}

function parseDottedPath(raw: string) {
  const text = raw.trim();
  return /^[\w$-]+(\.[\w$-]+)*$/.test(text)
    ? { value: text }
    : { error: msg('config.expectDotted') };
}

const specs: Record<SettingKey, SettingSpec> = {
  'base-url': {
    example: 'https://homolog.example.com',
    secret: false,
    parse: parseServiceUrl,
  },
  'service-id': {
    example: 'banco-homolog',
    secret: false,
    parse: (raw) => {
      const text = raw.trim();
      // A name, never a URL: it cannot be mistaken for a base URL's identity.
      return /^[A-Za-z0-9][\w.-]{0,99}$/.test(text) ? { value: text } : { error: msg('config.expectServiceId') };
    },
  },
  'database-url': {
    example: 'postgres://econsig@db.example.com/econsig',
    secret: true,
    display: redactConnectionString,
    parse: (raw) => {
      const text = raw.trim();
      try {
        const url = new URL(text);
        if ((url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '') return { value: text };
      } catch {
        // fall through to the message below
      }
      return { error: msg('config.expectPostgres') };
    },
  },
  'webhook.port': {
    example: '4020',
    secret: false,
    parse: (raw) => parseNumber(raw, 0, 65535, true, 'config.expectPort'),
  },
  'webhook.host': {
    example: '127.0.0.1',
    secret: false,
    parse: (raw) => {
      const text = raw.trim();
      return /^[\w.:[\]-]+$/.test(text) && !text.includes('://')
        ? { value: text.replace(/^\[|\]$/g, '') }
        : { error: msg('config.expectHost') };
    },
  },
  'webhook.path': {
    example: '/webhook',
    secret: false,
    parse: (raw) => {
      const text = raw.trim();
      return /^\/[^\s?#]*$/.test(text) ? { value: text } : { error: msg('config.expectPath') };
    },
  },
  'webhook.secret': {
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    secret: true,
    parse: (raw) => {
      const text = raw.trim();
      return text !== '' && !/\s/.test(text) ? { value: text } : { error: msg('config.expectSecret') };
    },
  },
  'webhook.auth': {
    example: 'bearer',
    secret: false,
    parse: (raw) => {
      const text = raw.trim().toLowerCase();
      return (CALLBACK_AUTH_SCHEMES as readonly string[]).includes(text) ? { value: text } : { error: msg('config.expectOneOf', { choices: CALLBACK_AUTH_SCHEMES.join(', ') }) };
    },
  },
  'webhook.api-key-header': {
    example: 'X-API-Key',
    secret: false,
    parse: (raw) => {
      const text = raw.trim();
      return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(text) ? { value: text } : { error: msg('config.expectHeader') };
    },
  },
  'request-timeout': {
    example: '30',
    secret: false,
    parse: (raw) => parseNumber(raw, Number.MIN_VALUE, 3600, false, 'config.expectSeconds3600'),
  },
  'wait-timeout': {
    example: '120',
    secret: false,
    parse: (raw) => parseNumber(raw, Number.MIN_VALUE, 86400, false, 'config.expectSeconds86400'),
  },
  concurrency: {
    example: '4',
    secret: false,
    parse: (raw) => parseNumber(raw, 1, 256, true, 'config.expectConcurrency'),
  },
  'webhook.id-field': {
    example: 'data.contrato.id',
    secret: false,
    parse: parseDottedPath,
  },
  'webhook.status-field': {
    example: 'data.situacao',
    secret: false,
    parse: parseDottedPath,
  },
  'auth.method': {
    example: 'client-credentials',
    secret: false,
    parse: parseChoice(['token', 'client-credentials']),
  },
  'auth.token-url': {
    example: 'https://auth.homolog.example.com/oauth2/token',
    secret: false,
    parse: parseHttpUrl,
  },
  'auth.client-id': {
    example: 'my-client-id',
    secret: false,
    parse: (raw) => {
      const text = raw.trim();
      return text !== '' && !/[\s\x00-\x1f]/.test(text) ? { value: text } : { error: msg('config.expectClientId') };
    },
  },
  'auth.scope': {
    example: 'contratos:write',
    secret: false,
    parse: (raw) => {
      const text = raw.trim().replace(/\s+/g, ' ');
      return text !== '' ? { value: text } : { error: msg('config.expectScopes') };
    },
  },
  'auth.client-auth': {
    example: 'basic',
    secret: false,
    parse: parseChoice(['basic', 'post']),
  },
  'tls.cert': {
    example: '/etc/econsig/client.pem',
    secret: false,
    parse: parseFilePath,
  },
  'tls.key': {
    example: '/etc/econsig/client.key',
    secret: false,
    parse: parseFilePath,
  },
  'tls.pfx': {
    example: '/etc/econsig/client.p12',
    secret: false,
    parse: parseFilePath,
  },
  'tls.ca': {
    example: '/etc/econsig/homolog-ca.pem',
    secret: false,
    parse: parseFilePath,
  },
  'receiver-url': {
    example: 'https://callbacks.example.com/webhook',
    secret: false,
    parse: parseHttpUrl,
  },
  'store.payload-retention': {
    example: '30d',
    secret: false,
    parse: (raw) => (durationMs(raw) === null ? { error: msg('config.expectDuration') } : { value: raw.trim() }),
  },
};

export const SETTING_KEYS = Object.keys(specs) as SettingKey[];

/** Defaults for a profile; only the default profile points at the sandbox. */
export function defaultSettings(profile: string): Settings {
  return {
    'base-url': profile === DEFAULT_PROFILE ? SANDBOX_BASE_URL : undefined,
    'service-id': undefined,
    'database-url': undefined,
    'webhook.port': 4020,
    'webhook.host': '127.0.0.1',
    'webhook.path': '/webhook',
    'webhook.secret': undefined,
    'webhook.auth': undefined,
    'webhook.api-key-header': 'X-API-Key',
    'request-timeout': 30,
    'wait-timeout': 120,
    concurrency: 4,
    'webhook.id-field': undefined,
    'webhook.status-field': undefined,
    'auth.method': 'token',
    'auth.token-url': undefined,
    'auth.client-id': undefined,
    'auth.scope': undefined,
    'auth.client-auth': 'basic',
    'tls.cert': undefined,
    'tls.key': undefined,
    'tls.pfx': undefined,
    'tls.ca': undefined,
    'receiver-url': undefined,
    'store.payload-retention': '30d',
  };
}

function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(specs, key);
}

function isSecretKey(key: SettingKey): boolean {
  return specs[key].secret;
}

/** The known key closest to `key`, when it is a plausible typo. */
export function suggestKey(key: string): SettingKey | undefined {
  const lower = key.toLowerCase().replace(/_/g, '-');
  // "port" means "webhook.port": a known key's last segment is the likeliest intent.
  const bySegment = SETTING_KEYS.find((candidate) => candidate.endsWith(`.${lower}`));
  return bySegment ?? (suggest(lower, SETTING_KEYS) as SettingKey | undefined);
}

/** Check a key name; throws UsageError listing the known keys, with "did you mean". */
export function assertSettingKey(key: string): SettingKey {
  if (isSettingKey(key)) return key;
  const suggestion = suggestKey(key);
  const didYouMean = suggestion ? msg('config.didYouMean', { suggestion }) : '';
  const list = SETTING_KEYS.map((k) => msg('config.settingLine', { key: k.padEnd(20), about: aboutSetting(k) }));
  throw new UsageError(msg('config.unknownSetting', { key, didYouMean }), msg('config.knownSettings', { list: { items: list, separator: '\n' } }));
}

/** What a setting is, for the list of known settings. */
function aboutSetting(key: SettingKey): Message {
  return msg(`config.about.${key}`, key === 'webhook.auth' ? { schemes: CALLBACK_AUTH_SCHEMES.join(', ') } : undefined);
}

/**
 * Parse a raw value for `key`. `origin` names where it came from (e.g. "ECONSIG_BASE_URL")
 * so the message points at the right place. Throws UsageError naming the key and an example.
 */
export function parseSettingValue(key: SettingKey, raw: string, origin?: string | Message): string | number {
  const result = specs[key].parse(raw);
  if ('value' in result) return result.value;
  const where = origin ? msg('config.from', { origin }) : '';
  // The value itself is left out of the message for secrets: it must never be printed.
  const shown = specs[key].secret ? '' : ` "${raw}"`;
  throw new UsageError(
    msg('config.invalidValue', { shown, key, where, reason: result.error }),
    msg('config.example', { key, example: specs[key].example }),
  );
}

/** Settings that hold a file path (tls.*): `config set` stores them absolute. */
export function isPathSetting(key: SettingKey): boolean {
  return specs[key].parse === parseFilePath;
}

/** The printable form of a setting value: secrets masked, unset values as undefined. */
export function displayValue(key: SettingKey, value: SettingValue): string | number | undefined {
  if (value === undefined) return undefined;
  if (!isSecretKey(key)) return value;
  return (specs[key].display ?? maskSecret)(String(value));
}

/** Profile names become object keys in the store, so keep them plain. */
export function assertProfileName(name: string, origin: string | Message): string {
  if (/^[A-Za-z0-9][\w.-]{0,63}$/.test(name)) return name;
  throw new UsageError(msg('config.badProfile', { name, origin }), msg('config.badProfileHint'));
}
