import type { Context, ValidateInput } from '../cli.js';
import { UsageError } from '../errors.js';
import { reportsExitCode, validateFiles } from '../flows/validate-files.js';
import { renderValidation } from '../ui/validate-output.js';

export async function run(input: ValidateInput, ctx: Context): Promise<number> {
  if (input.files.length === 0) {
    throw new UsageError('no file to validate', 'name files or folders, or - for stdin: econsig validate proposal.json');
  }
  const reports = validateFiles(input.files, {
    cwd: process.cwd(),
    stdin: ctx.io.stdin,
    now: new Date(),
    strict: input.strict,
  });
  renderValidation(reports, ctx.io, { strict: input.strict });
  return reportsExitCode(reports);
}
