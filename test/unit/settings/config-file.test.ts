import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { openConfigFile } from '../../../src/settings/config-file.js';

describe('openConfigFile', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'econsig-conf-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('keeps settings and tokens per profile, dotted keys as flat names', async () => {
    const file = await openConfigFile(home);
    file.setSetting('default', 'webhook.port', 5000);
    file.setSetting('homolog', 'base-url', 'https://h.example');
    file.setToken('homolog', 'tok-homolog');
    const again = await openConfigFile(home);
    expect(again.settings('default')).toEqual({ 'webhook.port': 5000 });
    expect(again.settings('homolog')).toEqual({ 'base-url': 'https://h.example' });
    expect(again.token('homolog')).toBe('tok-homolog');
    expect(again.token('default')).toBeUndefined();
    const raw = JSON.parse(await readFile(join(home, 'config.json'), 'utf8'));
    expect(raw.profiles.default.settings['webhook.port']).toBe(5000);
  });

  it('unsets and deletes, reporting whether anything was there', async () => {
    const file = await openConfigFile(home);
    file.setSetting('default', 'concurrency', 8);
    file.setToken('default', 'tok');
    expect(file.unsetSetting('default', 'concurrency')).toBe(true);
    expect(file.unsetSetting('default', 'concurrency')).toBe(false);
    expect(file.deleteToken('default')).toBe(true);
    expect(file.deleteToken('default')).toBe(false);
    // An emptied profile disappears from the file.
    const raw = JSON.parse(await readFile(file.path, 'utf8'));
    expect(raw.profiles).toEqual({});
  });

  it('stores and clears the current profile', async () => {
    const file = await openConfigFile(home);
    expect(file.currentProfile()).toBeUndefined();
    file.setCurrentProfile('homolog');
    expect((await openConfigFile(home)).currentProfile()).toBe('homolog');
    file.setCurrentProfile(undefined);
    expect((await openConfigFile(home)).currentProfile()).toBeUndefined();
  });

  it('ignores Object.prototype names as profiles', async () => {
    const file = await openConfigFile(home);
    expect(file.settings('constructor')).toEqual({});
    expect(file.token('constructor')).toBeUndefined();
  });

  it('turns a corrupt file into a UsageError naming it', async () => {
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'config.json'), '{"profiles":{"default":{"token":"tok_leaky_0123456789"');
    await expect(openConfigFile(home)).rejects.toThrow(UsageError);
    await expect(openConfigFile(home)).rejects.toThrow(`${join(home, 'config.json')}: it is not valid JSON`);
    // Neither message nor cause may quote the file: it holds tokens.
    const error = (await openConfigFile(home).catch((e: unknown) => e)) as UsageError;
    expect(`${error.message} ${error.hint} ${String(error.cause)}`).not.toContain('tok_leaky');
  });
});
