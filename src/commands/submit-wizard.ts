import type { Context, SubmitInput } from '../cli.js';
import { UsageError } from '../errors.js';
import type { FileReport, ValidateFilesOptions } from '../flows/validate-files.js';

/** The wizard's submission as a validated report, or null when the clerk saved or quit. */
export async function submissionFromWizard(
  _input: SubmitInput,
  ctx: Context,
  _options: ValidateFilesOptions,
): Promise<FileReport | null> {
  if (!ctx.io.canPrompt) {
    throw new UsageError(
      'no submission file given, and the wizard needs a terminal',
      'Pass the file: econsig submit --file proposal.json (or - for stdin).',
    );
  }
  throw new UsageError('the wizard is not available yet', 'Pass the file: econsig submit --file proposal.json.');
}
