/**
 * Output of `econsig config`: values are data (stdout), confirmations and notes are for
 * people (stderr). Secrets arrive here already masked.
 */
import type { HomePaths } from '../settings/home.js';
import type { SettingKey } from '../settings/keys.js';
import type { ResolvedProfile, SettingSource } from '../settings/settings.js';
import { type Lang, isMessageKey, say } from '../i18n/index.js';
import type { Io } from './io.js';
import { createTheme } from './theme.js';

export type ShownValue = string | number | undefined;

export interface SettingView {
  key: SettingKey;
  value: ShownValue;
  source: SettingSource;
}

function writeJson(io: Io, doc: unknown): void {
  io.stdout.write(`${JSON.stringify(doc)}\n`);
}

export function writeSetting(io: Io, profile: ResolvedProfile, view: SettingView): void {
  if (io.json) {
    writeJson(io, { profile: profile.name, key: view.key, value: view.value ?? null, source: view.source });
    return;
  }
  if (view.value === undefined) {
    io.stderr.write(`${say(io.lang, 'config.notSet', { key: view.key, profile: profile.name })}\n`);
    return;
  }
  io.stdout.write(`${view.value}\n`);
}

export function writeSettingList(io: Io, profile: ResolvedProfile, views: SettingView[]): void {
  if (io.json) {
    const settings = Object.fromEntries(views.map((v) => [v.key, { value: v.value ?? null, source: v.source }]));
    writeJson(io, { profile: profile.name, settings });
    return;
  }
  const t = createTheme(io);
  const lang: Lang = io.lang;
  const data = createTheme({ color: io.colorStdout });
  io.stderr.write(`${say(lang, 'config.profileLine', { profile: t.strong(profile.name), source: t.muted(`(${sourceName(lang, profile.source)})`) })}\n`);
  const width = Math.max(...views.map((v) => v.key.length));
  for (const v of views) {
    const value = v.value === undefined ? say(lang, 'config.unsetValue') : String(v.value);
    io.stdout.write(`${v.key.padEnd(width)}  ${value}  ${data.muted(`[${sourceName(lang, v.source)}]`)}\n`);
  }
}

/** Where a value comes from (flag, env, config, default), in the reader's words. */
export function sourceName(lang: Lang, source: string): string {
  const key = `config.source_${source}`;
  return isMessageKey(key) ? say(lang, key) : source;
}

export function writeSettingChanged(
  io: Io,
  change: { profile: string; key: SettingKey; value: ShownValue; changed: boolean; action: 'set' | 'unset' },
): void {
  if (io.json) {
    const doc =
      change.action === 'set'
        ? { ok: true, profile: change.profile, key: change.key, value: change.value ?? null }
        : { ok: true, profile: change.profile, key: change.key, removed: change.changed };
    writeJson(io, doc);
    return;
  }
  const t = createTheme(io);
  const lang: Lang = io.lang;
  const values = { key: change.key, value: String(change.value), profile: t.strong(change.profile) };
  const text =
    change.action === 'set'
      ? `${t.success('✓')} ${say(lang, 'config.changed', values)}`
      : change.changed
        ? `${t.success('✓')} ${say(lang, 'config.removed', values)}`
        : say(lang, 'config.notRemoved', values);
  io.stderr.write(`${text}\n`);
}

export function writePaths(io: Io, paths: HomePaths): void {
  if (io.json) {
    writeJson(io, { home: paths.home, config: paths.config, store: paths.store });
    return;
  }
  const lang: Lang = io.lang;
  io.stdout.write(`${say(lang, 'config.pathHome')}   ${paths.home}\n${say(lang, 'config.pathConfig')}   ${paths.config}\n${say(lang, 'config.pathStore')}   ${paths.store}\n`);
}
