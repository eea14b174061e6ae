import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  SANDBOX_BASE_URL,
  assertProfileName,
  assertSettingKey,
  defaultSettings,
  displayValue,
  parseSettingValue,
  SETTING_KEYS,
  suggestKey,
  type SettingKey,
} from '../../../src/settings/keys.js';

describe('parseSettingValue accepts', () => {
  it.each<[SettingKey, string, string | number]>([
    ['base-url', 'https://homolog.example.com/', 'https://homolog.example.com'],
    ['base-url', 'http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['webhook.port', '0', 0],
    ['webhook.port', '65535', 65535],
    ['webhook.host', '0.0.0.0', '0.0.0.0'],
    ['webhook.host', '[::1]', '::1'],
    ['webhook.path', '/hooks/econsig', '/hooks/econsig'],
    ['webhook.secret', ' whsec_abc ', 'whsec_abc'],
    ['request-timeout', '0.5', 0.5],
    ['wait-timeout', '600', 600],
    ['concurrency', '8', 8],
    ['webhook.id-field', 'data.contrato.id', 'data.contrato.id'],
    ['webhook.status-field', 'situacao', 'situacao'],
    ['service-id', ' banco-homolog ', 'banco-homolog'],
    ['service-id', 'bank.v2_prod', 'bank.v2_prod'],
    ['store.payload-retention', ' 90d ', '90d'],
    ['store.payload-retention', '0s', '0s'],
  ])('%s = %j', (key, raw, expected) => {
    expect(parseSettingValue(key, raw)).toBe(expected);
  });
});

describe('parseSettingValue rejects, naming the key and an example', () => {
  it.each<[SettingKey, string]>([
    ['base-url', 'ftp://x.example'],
    ['base-url', 'not a url'],
    ['base-url', 'http://127.0.0.1:4111/?x=1'],
    ['base-url', 'https://h.example/gw#top'],
    ['service-id', 'https://h.example'],
    ['service-id', 'two words'],
    ['service-id', ''],
    ['webhook.port', '65536'],
    ['webhook.port', '-1'],
    ['webhook.port', '40.5'],
    ['webhook.port', ''],
    ['webhook.host', 'http://x'],
    ['webhook.path', 'webhook'],
    ['webhook.secret', 'two words'],
    ['request-timeout', '0'],
    ['request-timeout', 'abc'],
    ['wait-timeout', '-5'],
    ['concurrency', '0'],
    ['concurrency', '2.5'],
    ['webhook.id-field', 'data..id'],
    ['store.payload-retention', '30'],
    ['store.payload-retention', '1 month'],
    ['store.payload-retention', '-1d'],
  ])('%s = %j', (key, raw) => {
    let error: unknown;
    try {
      parseSettingValue(key, raw, 'ECONSIG_X');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as UsageError).message).toContain(key);
    expect((error as UsageError).message).toContain('ECONSIG_X');
    expect((error as UsageError).hint).toMatch(new RegExp(`^Example: econsig config set ${key.replace('.', '\\.')} \\S+`));
  });

  it('never echoes a bad secret', () => {
    expect(() => parseSettingValue('webhook.secret', 'sup3r secret')).toThrow(/^Invalid value for webhook\.secret/);
    try {
      parseSettingValue('webhook.secret', 'sup3r secret');
    } catch (e) {
      expect(String((e as Error).message)).not.toContain('sup3r');
    }
  });
});

describe('assertSettingKey', () => {
  it.each([
    ['webhook.prot', 'webhook.port'],
    ['base_url', 'base-url'],
    ['baseurl', 'base-url'],
    ['port', 'webhook.port'],
    ['concurency', 'concurrency'],
  ])('%s suggests %s', (typo, suggestion) => {
    expect(suggestKey(typo)).toBe(suggestion);
    expect(() => assertSettingKey(typo)).toThrow(`Did you mean "${suggestion}"?`);
  });

  it('lists every known key in the hint and has no suggestion for nonsense', () => {
    try {
      assertSettingKey('zzzzzzzzzzzzzz');
      expect.unreachable();
    } catch (e) {
      expect((e as UsageError).message).not.toContain('Did you mean');
      for (const key of SETTING_KEYS) expect((e as UsageError).hint).toMatch(new RegExp(`^ {4}${key.replace('.', '\\.')} +\\S`, 'm'));
      expect((e as UsageError).exitCode).toBe(2);
    }
  });

  it('does not treat Object.prototype names as keys', () => {
    expect(() => assertSettingKey('constructor')).toThrow(UsageError);
    expect(assertSettingKey('wait-timeout')).toBe('wait-timeout');
  });
});

describe('displayValue', () => {
  it('masks secret settings only', () => {
    expect(displayValue('webhook.secret', 'whsec_0123456789abcdef')).toBe('****cdef');
    expect(displayValue('base-url', 'https://x.example')).toBe('https://x.example');
    expect(displayValue('webhook.secret', undefined)).toBeUndefined();
  });
});

describe('defaults', () => {
  it('points only the default profile at the sandbox', () => {
    expect(defaultSettings('default')['base-url']).toBe(SANDBOX_BASE_URL);
    expect(defaultSettings('homolog')['base-url']).toBeUndefined();
    expect(defaultSettings('homolog')).toMatchObject({
      'webhook.port': 4020,
      'webhook.host': '127.0.0.1',
      'webhook.path': '/webhook',
      'request-timeout': 30,
      'wait-timeout': 120,
      concurrency: 4,
      'store.payload-retention': '30d',
    });
  });
});

describe('assertProfileName', () => {
  it.each(['default', 'homolog', 'prod-2', 'a.b_c'])('accepts %s', (name) => {
    expect(assertProfileName(name, '--profile')).toBe(name);
  });
  it.each(['', '__proto__', '-x', 'a b', 'a/b'])('rejects %j', (name) => {
    expect(() => assertProfileName(name, '--profile')).toThrow(UsageError);
  });
});
