import { type Value, msg } from '../i18n/index.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Context, SubmitInput } from '../cli-inputs.js';
import { AuthError, EconsigError, ExitCode, InterruptedError, UsageError } from '../errors.js';
import { checkOutputPath, writeFileSafely } from '../safe-file.js';
import { isSuccess } from '../domain/outcome.js';
import { fieldsOfServiceErrors } from '../domain/service-fields.js';
import type { FieldPath } from '../domain/submission.js';
import { authPlanOf } from '../flows/auth-session.js';
import { expandInputs, loadSource } from '../flows/inputs.js';
import { type ValidateFilesOptions, reportOf } from '../flows/validate-files.js';
import { isSheetInput } from '../sheets/kind.js';
import { resolveHome } from '../settings/home.js';
import type { ResolvedSettings } from '../settings/settings.js';
import { createPrompts, PromptCancelledError } from '../ui/prompts.js';
import { createTheme } from '../ui/theme.js';
import { askAfterRefusal, renderNextStep } from '../ui/wizard/after-send.js';

import { draftResumed, keepDraft, saveToChosenFile } from '../ui/wizard/saving.js';
import { renderSaved } from '../ui/submit-output.js';
import type { SubmitResult, FileReport } from '../domain/report.js';

function saveSubmission(path: string, submission: Record<string, unknown>, ctx: Context): void {
  try {
    writeFileSafely(path, `${JSON.stringify(submission, null, 2)}\n`);
  } catch (error) {
    if (error instanceof EconsigError) throw error;
    throw new UsageError(msg('submit.cannotSave', { path, reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message }), msg('submit.cannotSaveHint'));
  }
  renderSaved(ctx.io, path);
}

/** The file given with -i (or a sheet's --row), parsed, to pre-fill the wizard. */
async function prefillFrom(input: SubmitInput, ctx: Context, options: ValidateFilesOptions): Promise<unknown> {
  if (input.files.length === 0) return undefined;
  if (input.files.length > 1) throw new UsageError(msg('submit.prefillOne'), msg('submit.prefillOneHint'));
  const [source] = expandInputs(input.files, options.cwd);
  if (source && isSheetInput(source.file, input.format)) {
    if (input.row === undefined) throw new UsageError(msg('submit.prefillRow'), msg('submit.prefillRowHint', { file: source.file }));
    const sheets = await import('../flows/sheet-inputs.js');
    return sheets.documentOfRow(source, input.row, { ...options, lang: ctx.io.lang, sheet: input.sheet, format: input.format });
  }
  const loaded = source ? loadSource(source, options.stdin) : undefined;
  if (!loaded?.ok) {
    const why = loaded ? { items: loaded.errors.map((e) => e.message), separator: '; ' } : msg('submit.nothingToRead');
    throw new UsageError(msg('submit.cannotPrefill', { file: input.files[0] ?? '', why }), msg('submit.cannotPrefillHint'));
  }
  return loaded.document;
}

interface Resume {
  prefill: unknown;
  serviceRejected?: ReadonlyMap<FieldPath, Value>;
}

/** The wizard's submission as a validated report, or null when the clerk saved or quit. */
async function submissionFromWizard(input: SubmitInput, ctx: Context, options: ValidateFilesOptions, resume: Resume): Promise<FileReport | null> {
  const { runWizard } = await import('../ui/wizard/index.js');
  const result = await runWizard({
    io: ctx.io,
    lang: ctx.io.lang,
    now: options.now,
    prefill: resume.prefill,
    ...(resume.serviceRejected ? { serviceRejected: resume.serviceRejected } : {}),
    savePath: input.save,
    signal: ctx.signal,
    draftDir: draftDir(ctx),
    ...(resumed(input, ctx) ? { draftFrom: resumed(input, ctx) as string } : {}),
  });
  if (result.action !== 'submit') return null;
  // --save writes the built submission whatever the clerk chose (docs/cli-contract.md).
  if (input.save !== undefined) saveSubmission(input.save, result.submission, ctx);
  // The same check as a file gets; the wizard's "Submit" choice was the confirmation.
  return reportOf('(wizard)', result.submission, options);
}

const draftDir = (ctx: Context): string => join(resolveHome(ctx.env), 'drafts');

/** The draft this run resumed (`--file` naming one of the drafts folder), if any. */
const resumed = (input: SubmitInput, ctx: Context): string | undefined => draftResumed(input.files[0], draftDir(ctx));

/** No token: said before the first question (issue 14), unless the clerk only builds a file. */
function checkCredentials(settings: ResolvedSettings, env: Record<string, string | undefined>): void {
  const plan = authPlanOf(settings, env);
  if (plan.method === 'token' && plan.token === undefined) {
    const profile = settings.profile.name;
    throw new AuthError(msg('wizard.noToken', { profile }), msg('wizard.noTokenHint', { flag: profile === 'default' ? '' : ` --profile ${profile}` }));
  }
}

export type Send = (reports: FileReport[]) => Promise<{ code: number; results?: SubmitResult[] }>;

/**
 * `econsig submit` with the wizard. The clerk's work is never lost (issue 14): after a
 * refused send the wizard says why and offers to correct the field the service named, to
 * send again when nothing was created, to save to a file, or to leave with a draft kept;
 * a send that fails outright keeps a draft too.
 */
export async function submitFromWizard(input: SubmitInput, ctx: Context, options: ValidateFilesOptions, settings: ResolvedSettings, send: Send): Promise<number> {
  // A --save path econsig will not write is said before the first question, not after the last.
  if (input.save !== undefined) checkOutputPath(input.save);
  if (!ctx.io.canPrompt) {
    throw new UsageError(
      msg('submit.wizardNeedsTerminal'),
      msg('submit.wizardNeedsTerminalHint'),
    );
  }
  const lang = ctx.io.lang;
  if (!input.dryRun && input.save === undefined) checkCredentials(settings, ctx.env);
  const theme = createTheme(ctx.io);
  const keeper = { io: ctx.io, lang, theme, now: options.now };
  const keep = (submission: Record<string, unknown>): Promise<void> => keepDraft(keeper, submission, draftDir(ctx), resumed(input, ctx));

  let resume: Resume = { prefill: await prefillFrom(input, ctx, options) };
  let report: FileReport | null = null;
  for (;;) {
    report ??= await submissionFromWizard(input, ctx, options, resume);
    if (!report) return ExitCode.ok;
    const submission = report.value as Record<string, unknown>;
    let sent;
    try {
      sent = await send([report]);
    } catch (error) {
      await keep(submission);
      throw error;
    }
    const result = sent.results?.[0];
    if (!input.dryRun && result && isSuccess(result.outcome)) {
      // Sent: the draft it was resumed from is done; and where its result will be seen.
      const draft = resumed(input, ctx);
      if (draft) rmSync(draft, { force: true });
      if (result.outcome === 'accepted' && result.idContrato) renderNextStep(ctx.io, theme, result.idContrato);
    }
    if (input.dryRun || !result || isSuccess(result.outcome)) return sent.code;
    if (ctx.signal.aborted) {
      await keep(submission);
      return sent.code;
    }
    const prompts = createPrompts(ctx.io, { dim: theme.muted, signal: ctx.signal });
    const serviceRejected: Map<FieldPath, Value> = fieldsOfServiceErrors(result.erros);
    if (result.outcome === 'not_found' && !serviceRejected.has('idProposta')) serviceRejected.set('idProposta', result.erros[0]?.msg ?? result.message);
    let choice;
    try {
      choice = await askAfterRefusal({ io: ctx.io, lang, theme, prompts, refusal: result, fields: [...serviceRejected.keys()] });
    } catch (error) {
      if (!(error instanceof PromptCancelledError)) throw error;
      await keep(submission);
      throw new InterruptedError(msg('wizard.cancelled'));
    }
    if (choice === 'retry') continue;
    if (choice === 'fix') {
      resume = { prefill: submission, serviceRejected };
      report = null;
      continue;
    }
    if (choice === 'save') await saveToChosenFile(keeper, prompts, submission, input.save);
    else await keep(submission);
    return sent.code;
  }
}
