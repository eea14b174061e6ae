/**
 * `econsig doctor` output: one line per check on stderr (the first failure with what to do),
 * or the whole report as one JSON document on stdout with --json.
 */
import type { CheckResult, DoctorReport } from '../flows/doctor.js';
import { type Lang, type Message, isMessageKey, say } from '../i18n/index.js';
import type { Io } from './io.js';
import { createTheme } from './theme.js';

/** A check's detail or hint in `lang`: a catalogue message said, a system's own words as they are. */
const textOf = (lang: Lang, said: Message | string): string => (typeof said === 'string' ? said : say(lang, said));

/** A check as --json has it: `name`, `status`, `exitCode` stable; `detail` and `hint` in the run's language. */
function checkJson(lang: Lang, check: CheckResult): Record<string, unknown> {
  return { ...check, detail: textOf(lang, check.detail), ...(check.hint === undefined ? {} : { hint: textOf(lang, check.hint) }) };
}

/** A check's name as people read it. */
function nameOf(lang: Lang, name: string): string {
  const key = `doctor.name_${name}`;
  return isMessageKey(key) ? say(lang, key) : name;
}

export function writeDoctorReport(io: Io, report: DoctorReport): void {
  const lang: Lang = io.lang;
  if (io.json) {
    io.stdout.write(`${JSON.stringify({ ...report, checks: report.checks.map((check) => checkJson(lang, check)) })}\n`);
    return;
  }
  const t = createTheme(io);
  const mark = { ok: t.success('✓'), warn: t.warning('!'), fail: t.error('✗'), skip: t.muted('-') };
  const lines: string[] = [];
  let hinted = false;
  for (const check of report.checks) {
    const detail = textOf(lang, check.detail);
    lines.push(`${mark[check.status]} ${nameOf(lang, check.name).padEnd(14)}${check.status === 'skip' ? t.muted(detail) : detail}`);
    // The first failure says what to do; warnings always do.
    if (check.hint && (check.status === 'warn' || (check.status === 'fail' && !hinted))) lines.push(`  ${' '.repeat(14)}${t.muted('→')} ${textOf(lang, check.hint)}`);
    if (check.status === 'fail') hinted = true;
  }
  const failed = report.checks.find((c) => c.status === 'fail');
  lines.push(failed ? `${t.error('✗')} ${say(lang, 'doctor.failed', { name: nameOf(lang, failed.name), code: report.exitCode })}` : `${t.success('✓')} ${say(lang, 'doctor.allPassed')}`);
  io.stderr.write(`${lines.join('\n')}\n`);
}
