import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { openConfigFile } from '../../../src/settings/config-file.js';
import {
  computeSettings,
  payloadRetentionMs,
  requireBaseUrl,
  resolveProfile,
  resolveSettings,
  type SettingSource,
} from '../../../src/settings/settings.js';

describe('resolveProfile: --profile > ECONSIG_PROFILE > stored current > default', () => {
  it.each<[string | undefined, Record<string, string>, string | undefined, string, SettingSource]>([
    ['cli', { ECONSIG_PROFILE: 'env' }, 'stored', 'cli', 'flag'],
    [undefined, { ECONSIG_PROFILE: 'env' }, 'stored', 'env', 'env'],
    [undefined, { ECONSIG_PROFILE: '' }, 'stored', 'stored', 'config'],
    [undefined, {}, 'stored', 'stored', 'config'],
    [undefined, {}, undefined, 'default', 'default'],
    ['', {}, undefined, 'default', 'default'],
  ])('flag %j, env %j, current %j → %s (%s)', (flag, env, current, name, source) => {
    expect(resolveProfile({ env, flag, current })).toEqual({ name, source });
  });

  it('rejects a bad profile name, naming where it came from', () => {
    expect(() => resolveProfile({ env: { ECONSIG_PROFILE: 'a b' }, flag: undefined, current: undefined })).toThrow(
      /ECONSIG_PROFILE/,
    );
  });
});

describe('computeSettings precedence: flag > env > config > default', () => {
  const base = { profile: 'default', configPath: '/h/config.json' };
  it.each<[string, Parameters<typeof computeSettings>[0], string | undefined, SettingSource]>([
    ['default', { ...base, env: {}, flags: {}, stored: {} }, 'http://127.0.0.1:4010', 'default'],
    ['config', { ...base, env: {}, flags: {}, stored: { 'base-url': 'https://c.example' } }, 'https://c.example', 'config'],
    [
      'env over config',
      { ...base, env: { ECONSIG_BASE_URL: 'https://e.example' }, flags: {}, stored: { 'base-url': 'https://c.example' } },
      'https://e.example',
      'env',
    ],
    [
      'empty env is unset',
      { ...base, env: { ECONSIG_BASE_URL: '' }, flags: {}, stored: { 'base-url': 'https://c.example' } },
      'https://c.example',
      'config',
    ],
    [
      'flag over env',
      {
        ...base,
        env: { ECONSIG_BASE_URL: 'https://e.example' },
        flags: { 'base-url': 'https://f.example' },
        stored: { 'base-url': 'https://c.example' },
      },
      'https://f.example',
      'flag',
    ],
    ['other profile has no default', { ...base, profile: 'homolog', env: {}, flags: {}, stored: {} }, undefined, 'default'],
  ])('base-url: %s', (_name, options, value, source) => {
    const { values, sources } = computeSettings(options);
    expect(values['base-url']).toBe(value);
    expect(sources['base-url']).toBe(source);
  });

  it('maps ECONSIG_WEBHOOK_SECRET and layers numeric settings', () => {
    const { values, sources } = computeSettings({
      ...base,
      env: { ECONSIG_WEBHOOK_SECRET: 'whsec_env', ECONSIG_TOKEN: 'not-a-setting' },
      flags: { 'request-timeout': 5 },
      stored: { 'webhook.port': 5000, 'request-timeout': 10, 'webhook.secret': 'whsec_file' },
    });
    expect(values).toMatchObject({
      'webhook.secret': 'whsec_env',
      'webhook.port': 5000,
      'request-timeout': 5,
      'wait-timeout': 120,
    });
    expect(sources).toMatchObject({
      'webhook.secret': 'env',
      'webhook.port': 'config',
      'request-timeout': 'flag',
      'wait-timeout': 'default',
    });
  });

  it('store.payload-retention from ECONSIG_PAYLOAD_RETENTION, in milliseconds', () => {
    const { values, sources } = computeSettings({ ...base, env: { ECONSIG_PAYLOAD_RETENTION: '7d' }, flags: {}, stored: {} });
    expect(sources['store.payload-retention']).toBe('env');
    expect(payloadRetentionMs(values)).toBe(7 * 86_400_000);
    expect(payloadRetentionMs(computeSettings({ ...base, env: {}, flags: {}, stored: {} }).values)).toBe(30 * 86_400_000);
  });

  it('rejects a bad env value naming the variable', () => {
    expect(() => computeSettings({ ...base, env: { ECONSIG_BASE_URL: 'nope' }, flags: {}, stored: {} })).toThrow(
      /base-url \(from ECONSIG_BASE_URL\)/,
    );
  });

  it('rejects a bad stored value naming the profile and file', () => {
    expect(() => computeSettings({ ...base, env: {}, flags: {}, stored: { 'webhook.port': 'x' } })).toThrow(
      /webhook\.port \(from profile "default" in \/h\/config\.json\)/,
    );
  });
});

describe('requireBaseUrl', () => {
  it('returns the URL or says how to set one', () => {
    const values = computeSettings({ profile: 'homolog', configPath: '/c', env: {}, flags: {}, stored: {} }).values;
    expect(() => requireBaseUrl({ values, profile: { name: 'homolog', source: 'flag' } })).toThrow(UsageError);
    const sandbox = computeSettings({ profile: 'default', configPath: '/c', env: {}, flags: {}, stored: {} }).values;
    expect(requireBaseUrl({ values: sandbox, profile: { name: 'default', source: 'default' } })).toBe(
      'http://127.0.0.1:4010',
    );
  });
});

describe('resolveSettings with a real home', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'econsig-settings-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('reads the profile chosen by --profile, its settings and stored token', async () => {
    const file = await openConfigFile(home);
    file.setSetting('homolog', 'base-url', 'https://h.example');
    file.setSetting('homolog', 'wait-timeout', 300);
    file.setToken('homolog', 'tok-homolog-0123456789');
    file.setToken('default', 'tok-default-0123456789');

    const s = await resolveSettings({ env: { ECONSIG_HOME: home }, globals: { profile: 'homolog', baseUrl: undefined } });
    expect(s.profile).toEqual({ name: 'homolog', source: 'flag' });
    expect(s.values['base-url']).toBe('https://h.example');
    expect(s.values['wait-timeout']).toBe(300);
    expect(s.sources['wait-timeout']).toBe('config');
    expect(s.token).toEqual({ token: 'tok-homolog-0123456789', source: 'file', path: join(home, 'config.json') });
    expect(s.paths.store).toBe(join(home, 'econsig.db'));
  });

  it('uses the stored current profile, --base-url and ECONSIG_TOKEN over the file', async () => {
    const file = await openConfigFile(home);
    file.setCurrentProfile('homolog');
    file.setToken('homolog', 'stored-token-0123456789');
    const s = await resolveSettings({
      env: { ECONSIG_TOKEN: 'env-token-0123456789' },
      home,
      globals: { profile: undefined, baseUrl: 'https://flag.example/' },
      flags: { concurrency: 2 },
    });
    expect(s.profile).toEqual({ name: 'homolog', source: 'config' });
    expect(s.values['base-url']).toBe('https://flag.example');
    expect(s.sources['base-url']).toBe('flag');
    expect(s.values.concurrency).toBe(2);
    expect(s.token).toEqual({ token: 'env-token-0123456789', source: 'env' });
  });
});
