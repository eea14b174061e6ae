import type { Context, ValidateInput } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { expandInputs } from '../flows/inputs.js';
import { checkSource, createDuplicateCheck } from '../flows/validate-files.js';
import { msg } from '../i18n/index.js';
import { sheetFormatOf } from '../sheets/kind.js';
import { createValidationOutput } from '../ui/validate-output.js';

export async function run(input: ValidateInput, ctx: Context): Promise<number> {
  if (input.files.length === 0) {
    throw new UsageError(msg('validate.noFile'), msg('validate.noFileHint'));
  }
  // keepValues: the duplicate check compares a proposal's data (each value dropped once checked).
  const options = { cwd: process.cwd(), stdin: ctx.io.stdin, now: new Date(), strict: input.strict, keepValues: true };
  const sources = expandInputs(input.files, options.cwd);
  const anySheet = sources.some((s) => sheetFormatOf(s.file, input.format) !== undefined);
  // Only a sheet loads the sheet code (and exceljs with it).
  const sheets = anySheet ? await import('../flows/sheet-inputs.js') : undefined;
  // A sheet's rows are many: list only the rows with something to say.
  const output = createValidationOutput(ctx.io, { strict: input.strict, quiet: input.quiet === true, total: anySheet ? Infinity : sources.length });
  // One file (or row) at a time, nothing kept but the output: memory stays flat however many.
  // The exit code is that of the first file, in input order, that did not pass.
  let exitCode: number = ExitCode.ok;
  // The same proposal on two rows or in two files: the second is an error naming the first.
  const duplicate = createDuplicateCheck();
  for (const source of sources) {
    if (sheets && sheetFormatOf(source.file, input.format) !== undefined) {
      // The run's language is also the sheet's first guess at its headers' language.
      const reports = sheets.checkSheetSource(source, { ...options, lang: ctx.io.lang, sheet: input.sheet, format: input.format });
      for await (const report of sheets.onlyRow(reports, input.row, source.file)) {
        duplicate(report);
        output.add(report);
        if (exitCode === ExitCode.ok) exitCode = report.exitCode;
      }
      continue;
    }
    const report = checkSource(source, options);
    duplicate(report);
    output.add(report);
    if (exitCode === ExitCode.ok) exitCode = report.exitCode;
  }
  output.finish();
  return exitCode;
}
