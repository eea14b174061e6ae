/** A JUnit XML report of a submit run (`--report`), one test case per file, for CI. */
import { writeFileSync } from 'node:fs';
import { EconsigError, ExitCode } from '../errors.js';
import { isSuccess } from '../domain/outcome.js';
import type { SubmitResult } from './submit-batch.js';

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}


export function junitXml(results: readonly SubmitResult[], options: { seconds: number; timestamp: string }): string {
  const failures = results.filter((r) => !isSuccess(r.outcome)).length;
  const cases = results.map((r) => {
    const name = escapeXml(r.file);
    const open = `    <testcase classname="econsig.submit" name="${name}" time="0">`;
    const out = `      <system-out>${escapeXml(`${r.outcome}: ${r.message}${r.idContrato ? ` (idContrato ${r.idContrato})` : ''}`)}</system-out>`;
    if (isSuccess(r.outcome)) return `${open}\n${out}\n    </testcase>`;
    const details = [
      ...r.errors.map((e) => `${e.path}: ${e.message}`),
      ...r.erros.map((e) => `${e.codigo}: ${e.msg}`),
      ...(r.hint ? [`hint: ${r.hint}`] : []),
    ].join('\n');
    return `${open}\n      <failure type="${r.outcome}" message="${escapeXml(r.message)}">${escapeXml(details)}</failure>\n${out}\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="econsig" tests="${results.length}" failures="${failures}" time="${options.seconds.toFixed(3)}">`,
    `  <testsuite name="econsig submit" tests="${results.length}" failures="${failures}" errors="0" skipped="0" time="${options.seconds.toFixed(3)}" timestamp="${options.timestamp}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Write the report file; a path that cannot be written is a usage error (exit 2). */
export function writeJunitReport(path: string, results: readonly SubmitResult[], options: { seconds: number; timestamp: string }): void {
  try {
    writeFileSync(path, junitXml(results, options));
  } catch (error) {
    throw new EconsigError(`cannot write the report ${path}`, { exitCode: ExitCode.usage, hint: 'Choose a --report path in a folder you can write to.', cause: error });
  }
}
