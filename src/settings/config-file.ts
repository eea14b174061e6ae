/**
 * The settings-and-token file, `<home>/config.json`, kept by conf. Shape:
 * `{ currentProfile?, profiles: { <name>: { settings?: {<key>: value}, token?, clientSecret? } } }`.
 * conf is imported only here, and only when a command opens the file.
 */
import { msg } from '../i18n/index.js';
import { UsageError } from '../errors.js';
import { FileRefusedError, checkOutputPath, checkRegularFile } from '../safe-file.js';
import { FILE_MODE, ensureHome, homePaths, tightenMode } from './home.js';
import type { SettingKey } from './keys.js';

export type StoredSettings = Partial<Record<SettingKey, unknown>>;

interface StoredProfile {
  settings?: StoredSettings;
  token?: string;
  /** OAuth2 client secret (auth.method client-credentials); kept like the token. */
  clientSecret?: string;
}

interface StoreShape {
  currentProfile?: string;
  profiles?: Record<string, StoredProfile>;
}

/** Read and write access to one econsig home's config file. */
export interface ConfigFile {
  readonly path: string;
  /** The profile chosen with setCurrentProfile, if any. */
  currentProfile(): string | undefined;
  /** The profiles the file names (shell completion lists them). */
  profileNames(): string[];
  setCurrentProfile(name: string | undefined): void;
  /** Raw stored settings of a profile (validated by the caller). */
  settings(profile: string): StoredSettings;
  setSetting(profile: string, key: SettingKey, value: string | number): void;
  /** Returns false when the key was not set. */
  unsetSetting(profile: string, key: SettingKey): boolean;
  token(profile: string): string | undefined;
  setToken(profile: string, token: string): void;
  /** Returns false when the profile had no stored token. */
  deleteToken(profile: string): boolean;
  clientSecret(profile: string): string | undefined;
  setClientSecret(profile: string, secret: string): void;
  /** Returns false when the profile had no stored client secret. */
  deleteClientSecret(profile: string): boolean;
}

/** The minimal slice of conf's API used here, so tests could hand in a fake. */
interface ConfLike {
  readonly path: string;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Open `<home>/config.json`: creates the home 0700, refuses a link or a FIFO at its place,
 * tightens a file that others can read,
 * and makes conf write 0600 (its default is 0o666; stripe/link-cli PR #51).
 */
export async function openConfigFile(home: string): Promise<ConfigFile> {
  await ensureHome(home);
  const path = homePaths(home).config;
  // conf's atomic write follows a link at config.json: a link or a FIFO there is refused first.
  checkOutputPath(path);
  try {
    // conf reads the file whole: one past the limit of a settings file is refused before it does.
    checkRegularFile(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
  await tightenMode(path, FILE_MODE);
  const { default: Conf } = await import('conf');
  let conf: ConfLike;
  try {
    conf = new Conf<StoreShape>({
      cwd: home,
      configName: 'config',
      projectName: 'econsig',
      configFileMode: FILE_MODE,
      // Keys such as "webhook.port" contain dots; we address whole objects instead.
      accessPropertiesByDotNotation: false,
    });
  } catch (error) {
    throw cannotRead(path, error);
  }
  return wrapConf(conf);
}

function cannotRead(path: string, error: unknown): UsageError {
  // No `cause`: a JSON.parse message quotes the file's text, and the file holds tokens.
  const code = (error as NodeJS.ErrnoException).code;
  const why = error instanceof FileRefusedError ? error.problem : error instanceof SyntaxError ? msg('config.notJson') : (code ?? (error as Error).name);
  return new UsageError(msg('config.cannotRead', { path, why }), msg('config.cannotReadHint'));
}

function wrapConf(conf: ConfLike): ConfigFile {
  const profiles = (): Record<string, StoredProfile> => {
    const value = conf.get('profiles');
    return value !== null && typeof value === 'object' ? (value as Record<string, StoredProfile>) : {};
  };
  const profile = (name: string): StoredProfile => own(profiles(), name) ?? {};
  const writeProfile = (name: string, next: StoredProfile): void => {
    const all = { ...profiles() };
    const empty = next.token === undefined && next.clientSecret === undefined && Object.keys(next.settings ?? {}).length === 0;
    if (empty) delete all[name];
    else all[name] = next;
    conf.set('profiles', all);
  };

  return {
    path: conf.path,
    profileNames() {
      return Object.keys(profiles());
    },
    currentProfile() {
      const value = conf.get('currentProfile');
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
    setCurrentProfile(name) {
      if (name === undefined) conf.delete('currentProfile');
      else conf.set('currentProfile', name);
    },
    settings(name) {
      const settings = profile(name).settings;
      return settings !== null && typeof settings === 'object' ? { ...settings } : {};
    },
    setSetting(name, key, value) {
      const current = profile(name);
      writeProfile(name, { ...current, settings: { ...current.settings, [key]: value } });
    },
    unsetSetting(name, key) {
      const current = profile(name);
      if (own(current.settings as Record<string, unknown> | undefined, key) === undefined) return false;
      const settings = { ...current.settings };
      delete settings[key];
      writeProfile(name, { ...current, settings });
      return true;
    },
    token(name) {
      const token = profile(name).token;
      return typeof token === 'string' && token !== '' ? token : undefined;
    },
    setToken(name, token) {
      writeProfile(name, { ...profile(name), token });
    },
    deleteToken(name) {
      const current = profile(name);
      if (typeof current.token !== 'string' || current.token === '') return false;
      const { token: _removed, ...rest } = current;
      writeProfile(name, rest);
      return true;
    },
    clientSecret(name) {
      const secret = profile(name).clientSecret;
      return typeof secret === 'string' && secret !== '' ? secret : undefined;
    },
    setClientSecret(name, clientSecret) {
      writeProfile(name, { ...profile(name), clientSecret });
    },
    deleteClientSecret(name) {
      const current = profile(name);
      if (typeof current.clientSecret !== 'string' || current.clientSecret === '') return false;
      const { clientSecret: _removed, ...rest } = current;
      writeProfile(name, rest);
      return true;
    },
  };
}
