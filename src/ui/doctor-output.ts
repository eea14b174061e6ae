/**
 * `econsig doctor` output: one line per check on stderr (the first failure with what to do),
 * or the whole report as one JSON document on stdout with --json.
 */
import type { DoctorReport } from '../flows/doctor.js';
import type { Io } from './io.js';
import { createTheme } from './theme.js';

export function writeDoctorReport(io: Io, report: DoctorReport): void {
  if (io.json) {
    io.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  const t = createTheme(io);
  const mark = { ok: t.success('✓'), warn: t.warning('!'), fail: t.error('✗'), skip: t.muted('-') };
  const lines: string[] = [];
  let hinted = false;
  for (const check of report.checks) {
    lines.push(`${mark[check.status]} ${check.name.padEnd(12)}${check.status === 'skip' ? t.muted(check.detail) : check.detail}`);
    // The first failure says what to do; warnings always do.
    if (check.hint && (check.status === 'warn' || (check.status === 'fail' && !hinted))) lines.push(`  ${' '.repeat(12)}${t.muted('→')} ${check.hint}`);
    if (check.status === 'fail') hinted = true;
  }
  const failed = report.checks.find((c) => c.status === 'fail');
  lines.push(failed ? `${t.error('✗')} ${failed.name} failed (exit ${report.exitCode})` : `${t.success('✓')} all checks passed`);
  io.stderr.write(`${lines.join('\n')}\n`);
}
