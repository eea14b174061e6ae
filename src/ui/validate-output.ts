import type { FileReport } from '../flows/validate-files.js';
import type { Io } from './io.js';
import { createTheme } from './theme.js';

/** Files listed one by one up to this count; past it, only files with problems. */
const LIST_CLEAN_FILES_UP_TO = 20;

/** --json: the contract's document. Otherwise people's text on stderr, grouped by file. */
export function renderValidation(reports: readonly FileReport[], io: Io, options: { strict: boolean }): void {
  if (io.json) {
    const doc = {
      ok: reports.every((r) => r.ok),
      files: reports.map((r) => ({ file: r.file, ok: r.ok, errors: r.errors, warnings: r.warnings })),
    };
    io.stdout.write(`${JSON.stringify(doc)}\n`);
    return;
  }
  const t = createTheme(io);
  const out: string[] = [];
  const listClean = reports.length <= LIST_CLEAN_FILES_UP_TO;
  for (const report of reports) {
    if (report.ok && report.warnings.length === 0) {
      if (listClean) out.push(`${t.success('✓')} ${report.file}`);
      continue;
    }
    out.push(`${report.ok ? t.success('✓') : t.error('✗')} ${t.strong(report.file)}`);
    for (const e of report.errors) out.push(`    ${t.error('error  ')} ${t.path(e.path)}: ${e.message}`);
    for (const w of report.warnings) {
      const label = options.strict ? t.error('warning') : t.warning('warning');
      out.push(`    ${label} ${t.path(w.path)}: ${w.message}`);
    }
  }
  const valid = reports.filter((r) => r.ok).length;
  const errors = reports.reduce((n, r) => n + r.errors.length, 0);
  const warnings = reports.reduce((n, r) => n + r.warnings.length, 0);
  const files = `${reports.length} file${reports.length === 1 ? '' : 's'}`;
  const summary = `${files}: ${valid} valid, ${reports.length - valid} invalid (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${options.strict && warnings ? ', counted as errors with --strict' : ''})`;
  out.push(valid === reports.length ? t.success(summary) : t.error(summary));
  io.stderr.write(`${out.join('\n')}\n`);
}
