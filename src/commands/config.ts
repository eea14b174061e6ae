import { resolve } from 'node:path';
import type { ConfigInput, Context } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { msg } from '../i18n/index.js';
import { homePaths, resolveHome } from '../settings/home.js';
import { SETTING_KEYS, assertSettingKey, displayValue, isPathSetting, parseSettingValue, type SettingKey } from '../settings/keys.js';
import { SETTING_ENV, openProfile, resolveSettings, type ResolvedSettings } from '../settings/settings.js';
import { writePaths, writeSetting, writeSettingChanged, writeSettingList, type SettingView } from '../ui/config-output.js';
import { writeWarning } from '../ui/auth-output.js';

/** `econsig config get|set|unset|list|path`, per profile (docs/cli-contract.md "Commands"). */
export async function run(input: ConfigInput, ctx: Context): Promise<number> {
  const base = { env: ctx.env, globals: ctx.globals };
  switch (input.action) {
    case 'path':
      // No config file needed: conf is not even loaded.
      writePaths(ctx.io, homePaths(resolveHome(ctx.env)));
      return ExitCode.ok;
    case 'get': {
      const key = assertSettingKey(input.key);
      const settings = await resolveSettings(base);
      writeSetting(ctx.io, settings.profile, view(settings, key));
      return ExitCode.ok;
    }
    case 'list': {
      const settings = await resolveSettings(base);
      writeSettingList(ctx.io, settings.profile, SETTING_KEYS.map((key) => view(settings, key)));
      return ExitCode.ok;
    }
    case 'set': {
      const key = assertSettingKey(input.key);
      const parsed = parseSettingValue(key, input.value);
      // A relative certificate path would mean another file from another folder.
      const value = isPathSetting(key) ? resolve(String(parsed)) : parsed;
      // Only the profile is resolved: set must work even to repair a bad stored value.
      const { profile, file } = await openProfile(base);
      file.setSetting(profile.name, key, value);
      writeSettingChanged(ctx.io, { profile: profile.name, key, value: displayValue(key, value), changed: true, action: 'set' });
      warnIfOverridden(key, ctx);
      return ExitCode.ok;
    }
    case 'unset': {
      const key = assertSettingKey(input.key);
      const { profile, file } = await openProfile(base);
      const changed = file.unsetSetting(profile.name, key);
      writeSettingChanged(ctx.io, { profile: profile.name, key, value: undefined, changed, action: 'unset' });
      return ExitCode.ok;
    }
  }
}

function view(settings: ResolvedSettings, key: SettingKey): SettingView {
  return { key, value: displayValue(key, settings.values[key]), source: settings.sources[key] };
}

function warnIfOverridden(key: SettingKey, ctx: Context): void {
  const envName = SETTING_ENV[key];
  if (envName !== undefined && (ctx.env[envName] ?? '') !== '') {
    writeWarning(ctx.io, msg('config.envWins', { env: envName, key }));
  }
  if (key === 'base-url' && ctx.globals.baseUrl !== undefined) {
    writeWarning(ctx.io, msg('config.flagWins'));
  }
}
