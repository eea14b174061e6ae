/**
 * Output of `econsig config`: values are data (stdout), confirmations and notes are for
 * people (stderr). Secrets arrive here already masked.
 */
import type { HomePaths } from '../store/home.js';
import type { SettingKey } from '../store/keys.js';
import type { ResolvedProfile, SettingSource } from '../store/settings.js';
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
    io.stderr.write(`${view.key} is not set for profile ${profile.name}.\n`);
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
  const data = createTheme({ color: io.colorStdout });
  io.stderr.write(`Profile: ${t.strong(profile.name)} ${t.muted(`(${profile.source})`)}\n`);
  const width = Math.max(...views.map((v) => v.key.length));
  for (const v of views) {
    const value = v.value === undefined ? '(not set)' : String(v.value);
    io.stdout.write(`${v.key.padEnd(width)}  ${value}  ${data.muted(`[${v.source}]`)}\n`);
  }
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
  const text =
    change.action === 'set'
      ? `${t.success('✓')} ${change.key} = ${String(change.value)} for profile ${t.strong(change.profile)}`
      : change.changed
        ? `${t.success('✓')} ${change.key} removed from profile ${t.strong(change.profile)}; the default applies`
        : `${change.key} was not set for profile ${t.strong(change.profile)}; nothing to remove`;
  io.stderr.write(`${text}\n`);
}

export function writePaths(io: Io, paths: HomePaths): void {
  if (io.json) {
    writeJson(io, { home: paths.home, config: paths.config, store: paths.store });
    return;
  }
  io.stdout.write(`home     ${paths.home}\nconfig   ${paths.config}\nstore    ${paths.store}\n`);
}
