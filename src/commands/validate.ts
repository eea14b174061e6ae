import type { Context, ValidateInput } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { expandInputs } from '../flows/inputs.js';
import { checkSource } from '../flows/validate-files.js';
import { createValidationOutput } from '../ui/validate-output.js';

export async function run(input: ValidateInput, ctx: Context): Promise<number> {
  if (input.files.length === 0) {
    throw new UsageError('no file to validate', 'name files or folders, or - for stdin: econsig validate proposal.json');
  }
  const options = { cwd: process.cwd(), stdin: ctx.io.stdin, now: new Date(), strict: input.strict };
  const sources = expandInputs(input.files, options.cwd);
  const output = createValidationOutput(ctx.io, { strict: input.strict, total: sources.length });
  // One file at a time, nothing kept but the output: memory stays flat however many files.
  // The exit code is that of the first file, in input order, that did not pass.
  let exitCode: number = ExitCode.ok;
  for (const source of sources) {
    const report = checkSource(source, options);
    output.add(report);
    if (exitCode === ExitCode.ok) exitCode = report.exitCode;
  }
  output.finish();
  return exitCode;
}
