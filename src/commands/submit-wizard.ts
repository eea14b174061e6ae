import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context, SubmitInput } from '../cli-inputs.js';
import { UsageError } from '../errors.js';
import { expandInputs, loadSource } from '../flows/inputs.js';
import { type FileReport, type ValidateFilesOptions, reportOf } from '../flows/validate-files.js';
import { isSheetInput } from '../sheets/kind.js';
import { resolveHome } from '../store/home.js';
import { renderSaved } from '../ui/submit-output.js';

function saveSubmission(path: string, submission: Record<string, unknown>, ctx: Context): void {
  try {
    writeFileSync(path, `${JSON.stringify(submission, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new UsageError(`cannot write ${path}: ${(error as Error).message}`, 'Choose another --save path; nothing was sent.');
  }
  renderSaved(ctx.io, path);
}

/** The file given with -i (or a sheet's --row), parsed, to pre-fill the wizard. */
async function prefillFrom(input: SubmitInput, ctx: Context, options: ValidateFilesOptions): Promise<unknown> {
  if (input.files.length === 0) return undefined;
  if (input.files.length > 1) throw new UsageError('-i pre-fills from one file at most', 'Pass one --file with -i.');
  const [source] = expandInputs(input.files, options.cwd);
  if (source && isSheetInput(source.file, input.format)) {
    if (input.row === undefined) throw new UsageError('-i with a sheet needs the row to start from', `e.g. econsig submit -i --file ${source.file} --row 2`);
    const sheets = await import('../flows/sheet-inputs.js');
    return sheets.documentOfRow(source, input.row, { ...options, lang: sheets.sheetLang(input.lang, ctx.env), sheet: input.sheet, format: input.format });
  }
  const loaded = source ? loadSource(source, options.stdin) : undefined;
  if (!loaded?.ok) {
    const why = loaded?.errors.map((e) => e.message).join('; ') ?? 'nothing to read';
    throw new UsageError(`cannot pre-fill from ${input.files[0]}: ${why}`, 'Fix the file, or run the wizard without it.');
  }
  return loaded.document;
}

/** The wizard's submission as a validated report, or null when the clerk saved or quit. */
export async function submissionFromWizard(input: SubmitInput, ctx: Context, options: ValidateFilesOptions): Promise<FileReport | null> {
  if (!ctx.io.canPrompt) {
    throw new UsageError(
      'no submission file given, and the wizard needs a terminal',
      'Pass the file: econsig submit --file proposal.json (or - for stdin).',
    );
  }
  const prefill = await prefillFrom(input, ctx, options);
  const { runWizard, wizardLang } = await import('../ui/wizard/index.js');
  const result = await runWizard({
    io: ctx.io,
    lang: wizardLang(input.lang, ctx.env),
    now: options.now,
    prefill,
    savePath: input.save,
    signal: ctx.signal,
    draftDir: join(resolveHome(ctx.env), 'drafts'),
  });
  if (result.action !== 'submit') return null;
  // --save writes the built submission whatever the clerk chose (cli-contract.md).
  if (input.save !== undefined) saveSubmission(input.save, result.submission, ctx);
  // The same check as a file gets; the wizard's "Submit" choice was the confirmation.
  return reportOf('(wizard)', result.submission, options);
}
