import { mkdtemp, mkdir, readdir, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureHome, homePaths, resolveHome, storeId, tightenMode } from '../../../src/settings/home.js';
import { openConfigFile } from '../../../src/settings/config-file.js';

describe('resolveHome', () => {
  it.each([
    [{ ECONSIG_HOME: '/x/econsig', XDG_CONFIG_HOME: '/xdg' }, '/x/econsig'],
    [{ ECONSIG_HOME: '', XDG_CONFIG_HOME: '/xdg' }, '/xdg/econsig'],
    [{ XDG_CONFIG_HOME: '/xdg' }, '/xdg/econsig'],
    [{ XDG_CONFIG_HOME: 'relative/xdg' }, '/home/ana/.config/econsig'],
    [{}, '/home/ana/.config/econsig'],
  ])('%j → %s', (env, expected) => {
    expect(resolveHome(env, '/home/ana')).toBe(expected);
  });

  it.each([
    [{ APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'C:\\Users\\ana\\AppData\\Roaming\\econsig'],
    [{ APPDATA: 'C:\\Users\\ana\\AppData\\Roaming', XDG_CONFIG_HOME: 'D:\\xdg' }, 'D:\\xdg\\econsig'],
    [{ APPDATA: 'C:\\Users\\ana\\AppData\\Roaming', ECONSIG_HOME: 'E:\\econsig' }, 'E:\\econsig'],
    [{ APPDATA: 'relative' }, 'C:\\Users\\ana\\AppData\\Roaming\\econsig'],
    [{}, 'C:\\Users\\ana\\AppData\\Roaming\\econsig'],
  ])('Windows: %j → %s', (env, expected) => {
    expect(resolveHome(env, 'C:\\Users\\ana', 'win32')).toBe(expected);
  });

  it('makes a relative ECONSIG_HOME absolute', () => {
    expect(resolveHome({ ECONSIG_HOME: 'rel' }, '/home/ana')).toBe(join(process.cwd(), 'rel'));
  });

  it('names config and store inside the home', () => {
    expect(homePaths('/h')).toEqual({ home: '/h', config: '/h/config.json', store: '/h/econsig.db' });
  });
});

describe('file modes', () => {
  let root: string;
  const mode = async (path: string) => (await stat(path)).mode & 0o777;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'econsig-home-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates the home 0700, nested', async () => {
    const home = join(root, 'a', 'econsig');
    await ensureHome(home);
    expect(await mode(home)).toBe(0o700);
  });

  it('tightens an existing home that others can read', async () => {
    const home = join(root, 'loose');
    await mkdir(home, { mode: 0o755 });
    await chmod(home, 0o755);
    expect(await mode(home)).toBe(0o755);
    await ensureHome(home);
    expect(await mode(home)).toBe(0o700);
  });

  it('on Windows, where modes mean nothing, leaves the mode alone', async () => {
    const home = join(root, 'windows');
    await mkdir(home, { mode: 0o755 });
    await chmod(home, 0o755);
    await tightenMode(home, 0o700, 'win32');
    expect(await mode(home)).toBe(0o755);
  });

  it('writes the config file 0600 (conf defaults to 0666) in a 0700 home', async () => {
    const home = join(root, 'fresh');
    const file = await openConfigFile(home);
    file.setToken('default', 'secret-token-0123456789');
    expect(file.path).toBe(join(home, 'config.json'));
    expect(await mode(file.path)).toBe(0o600);
    expect(await mode(home)).toBe(0o700);
  });

  it('tightens an existing config file that others can read', async () => {
    const home = join(root, 'old');
    await mkdir(home, { mode: 0o700 });
    const path = join(home, 'config.json');
    await writeFile(path, JSON.stringify({ profiles: { default: { token: 'x' } } }));
    await chmod(path, 0o644);
    const file = await openConfigFile(home);
    expect(await mode(path)).toBe(0o600);
    expect(file.token('default')).toBe('x');
  });
});

describe('storeId (what /healthz says of the store)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'econsig-store-id-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('the same for every process of a home on one store, another for another store or home; never the location', async () => {
    const home = join(root, 'a');
    const location = 'postgres://econsig@db.example.com/econsig';
    const ids = await Promise.all(Array.from({ length: 8 }, () => storeId(home, location)));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(await storeId(home, 'postgres://econsig@db.example.com/other')).not.toBe(ids[0]);
    expect(await storeId(join(root, 'b'), location)).not.toBe(ids[0]);
    // The salt is kept 0600 in the home, alone (no temporary left).
    expect(await readdir(home)).toEqual(['store-id.salt']);
    expect((await stat(join(home, 'store-id.salt'))).mode & 0o777).toBe(0o600);
  });

  it('a home where no salt can be kept still gets an id, of this process only', async () => {
    const file = join(root, 'not-a-folder');
    await writeFile(file, 'x');
    const id = await storeId(join(file, 'home'), 'x');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await storeId(join(file, 'home'), 'x')).not.toBe(id);
  });
});
