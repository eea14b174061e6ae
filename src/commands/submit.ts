import type { Context, SubmitInput } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { writeJunitReport } from '../flows/junit.js';
import { type SubmitInputs, checkTarget, createTally, dryRunRequests, heldInputs, invalidResult, submitReports, withRecord } from '../flows/run-submit.js';
import { StoreIncompleteError } from '../flows/submit-batch.js';
import { expandInputs } from '../flows/inputs.js';
import { checkSource, reportsExitCode } from '../flows/validate-files.js';
import { isLoopbackUrl } from '../service/client.js';
import { type ResolvedSettings, guardService, listenerSettings, payloadRetentionMs, requireBaseUrl, resolveSettings } from '../settings/settings.js';
import { SANDBOX_BASE_URL, type Settings } from '../settings/keys.js';
import {
  createInvalidFilesOutput,
  createSubmitProgress,
  renderDryRun,
  renderNotice,
  renderResultsWritten,
  renderRetry,
  renderSubmitResults,
  renderSubmitSummary,
  renderTarget,
} from '../ui/submit-output.js';
import { confirmTarget } from '../ui/prompts.js';
import { msg } from '../i18n/index.js';
import { isSheetInput } from '../sheets/kind.js';
import { checkOutputPath } from '../safe-file.js';
import { renderStoreNotice } from '../ui/history-output.js';
import type { Store, StoreNotice } from '../record/record.js';
import { RunLog, readRun } from '../flows/runs.js';
import type { ResultWaiter } from '../flows/result-waiter.js';
import { redactCommandLine } from '../redact.js';
import { renderRunEnded, renderRunStarted } from '../ui/runs-output.js';
import { appendStepSummary } from '../ui/run-report.js';
import { answerKeeper } from '../record/kept-answers.js';
import type { SubmitResult, FileReport } from '../domain/report.js';

function settingFlags(input: SubmitInput): Partial<Settings> {
  const flags: Partial<Settings> = {};
  if (input.requestTimeout !== undefined) flags['request-timeout'] = input.requestTimeout;
  if (input.timeout !== undefined) flags['wait-timeout'] = input.timeout;
  if (input.concurrency !== undefined) flags.concurrency = input.concurrency;
  if (input.listen) {
    flags['webhook.host'] = input.listen.host;
    flags['webhook.port'] = input.listen.port;
  }
  return flags;
}

/** Where --wait listens, and what it verifies, from the same settings as `watch`. */
function waitListener(settings: ResolvedSettings) {
  const { host, port, path, secret, extractOptions } = listenerSettings(settings);
  return { host, port, path, secret: secret?.value, extractOptions };
}

export async function run(input: SubmitInput, ctx: Context): Promise<number> {
  const { io } = ctx;
  const now = new Date();
  const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals, flags: settingFlags(input) });
  const options = { cwd: process.cwd(), stdin: io.stdin, now, strict: input.strict, keepValues: true };
  const sending: Sending = { input, ctx, settings, now };

  const fromWizard = input.files.length === 0 || input.interactive;
  if (fromWizard) {
    const { submitFromWizard } = await import('./submit-wizard.js');
    // Settings again for each send: a clerk may log in in another terminal between two tries.
    const send = async (reports: FileReport[]) => {
      const resolved = await resolveSettings({ env: ctx.env, globals: ctx.globals, flags: settingFlags(input) });
      return sendReports({ ...sending, settings: resolved, fromWizard: true }, planned(io, (onReport) => heldInputs(reports, onReport)));
    };
    return submitFromWizard(input, ctx, options, settings, send);
  }
  // Folders expanded first: a folder may hold sheets (*.csv, *.xlsx) beside JSON files.
  const sources = expandInputs(input.files, options.cwd);
  const inputs = sources.some((source) => isSheetInput(source.file, input.format))
    ? await planned(io, async (onReport) =>
        (await import('../flows/sheet-inputs.js')).readSheetInputs(sources, { ...options, lang: io.lang, sheet: input.sheet, format: input.format, row: input.row }, onReport),
      input.quiet)
    : planned(io, (onReport) => heldInputs(sources.map((source) => checkSource(source, options)), onReport), input.quiet);
  try {
    return (await sendReports(sending, inputs)).code;
  } finally {
    inputs.close();
  }
}

/** Plan the inputs, showing each report's problems, warnings and notes as it is read (validate's way). */
function planned<T extends SubmitInputs | Promise<SubmitInputs>>(io: Context['io'], plan: (onReport: (report: FileReport) => void) => T, quiet = false): T {
  const shown = createInvalidFilesOutput(io, quiet);
  const inputs = plan((report) => shown.add(report));
  if (inputs instanceof Promise) return inputs.finally(() => shown.flush()) as T;
  shown.flush();
  return inputs;
}

/** What sending needs besides the inputs. */
interface Sending {
  input: SubmitInput;
  ctx: Context;
  settings: ResolvedSettings;
  now: Date;
  fromWizard?: boolean;
}

/**
 * Send the valid reports (or show them, with --dry-run) and render the run; the exit code,
 * and the results when they are kept (--json, --report, the wizard). Each result is told as
 * it comes: its line, its row of the results sheet, the counts (issue 22: a sheet of a
 * million rows is not held).
 */
async function sendReports(sending: Sending, inputs: SubmitInputs): Promise<{ code: number; results?: SubmitResult[] }> {
  const { input, ctx, settings, now } = sending;
  const { io } = ctx;
  const fromWizard = sending.fromWizard === true;
  const baseUrl = requireBaseUrl(settings);
  if (input.dryRun) {
    const oauth = settings.token?.source !== 'env' && (settings.values['auth.method'] === 'client-credentials' || (ctx.env.ECONSIG_CLIENT_SECRET ?? '') !== '');
    if (oauth) renderNotice(io, msg('service.dryRunOauth'));
    else if (!settings.token) renderNotice(io, msg('service.dryRunNoToken'));
    // Every request is shown: the reports are held (a dry run is for a look, not a million rows).
    const reports: FileReport[] = [];
    for await (const report of inputs.reports()) reports.push(report);
    renderDryRun(io, dryRunRequests(reports, baseUrl, settings.token?.token), reports);
    return { code: reportsExitCode(reports) };
  }
  const tally = createTally(io.json || input.report !== undefined || fromWizard);
  const openResults = async () => (await import('../flows/sheet-results.js')).openSheetResults(inputs.sheets, input.results, process.cwd(), io.lang);
  const finish = async (sheetResults: Awaited<ReturnType<typeof openResults>> | undefined, extra: Parameters<typeof renderSubmitSummary>[2]): Promise<void> => {
    if (sheetResults) renderResultsWritten(io, await sheetResults.finish(), sheetResults.unwritten);
    if (tally.results) renderSubmitResults(io, tally.results, extra);
    else renderSubmitSummary(io, tally, extra);
  };

  // Nothing to send (every file unreadable or invalid): say so without asking for a token.
  if (inputs.plan.toSend === 0) {
    const sheetResults = inputs.sheets.length > 0 ? await openResults() : undefined;
    let index = 0;
    for await (const report of inputs.reports()) {
      const result = invalidResult(report);
      sheetResults?.expect(report);
      sheetResults?.add(result);
      tally.add(index++, result);
    }
    await finish(sheetResults, { interrupted: false });
    return { code: tally.exitCode(), ...(tally.results ? { results: tally.results } : {}) };
  }

  // No token (or client secret), unusable TLS files, or a plain-http remote host: fail before anything leaves.
  const { openAuthSession, unauthorizedHint } = await import('../flows/auth-session.js');
  const session = openAuthSession({ settings, env: ctx.env });
  ctx.defer(() => session.close());
  for (const warning of session.tls?.warnings ?? []) renderNotice(io, warning);
  checkTarget(baseUrl);
  // The files the run writes: a link or a FIFO there is refused before anything is sent.
  if (input.report) checkOutputPath(input.report);
  // Opened before the first POST: a results file that cannot be written stops the run here.
  const sheetResults = inputs.sheets.length > 0 ? await openResults() : undefined;
  const plan = inputs.plan;
  // A real service (not this machine) on a terminal: say where, and ask, unless --yes.
  // The wizard's own "Submit" was the confirmation; CI never prompts.
  if (!input.yes && io.canPrompt && !fromWizard && !isLoopbackUrl(baseUrl)) {
    const submissions = msg(plan.toSend === 1 ? 'run.submissionOne' : 'run.submissionMany');
    await confirmTarget(io, msg('run.confirmSend', { n: plan.toSend, submissions, url: baseUrl, profile: settings.profile.name }), ctx.signal);
  }
  // Certificate dates, TLS trust and the client certificate, and the first token: before any POST.
  await session.prepare(baseUrl);
  const values = settings.values;
  const progress = await createSubmitProgress(io, plan.toSend + plan.duplicates, ctx.signal, input.quiet === true);
  const started = Date.now();
  async function* reports(): AsyncGenerator<FileReport> {
    for await (const report of inputs.reports()) {
      sheetResults?.expect(report);
      yield report;
    }
  }
  let notStored: StoreIncompleteError | undefined;
  let runId: string | undefined;
  try {
    // With a team store and no --listen, the receiver is elsewhere: wait on the store alone.
    const wait = input.wait ? { listener: waitListener(settings), listen: !(values['database-url'] && !input.listen) } : undefined;
    const record = { home: settings.paths.home, databaseUrl: values['database-url'], payloadRetentionMs: payloadRetentionMs(values), onNotice: (notice: StoreNotice) => renderStoreNotice(io, notice), wait };
    await withRecord(record, async (store, waiter) => {
      renderTarget(io, { profile: settings.profile.name, baseUrl, count: plan.toSend, invalid: plan.invalid, duplicates: plan.duplicates, ...(waiter ? { wait: waiter.mode } : {}) });
      // Every submit is a run (docs/cli-contract.md, "Runs"): recorded as it goes, its id said at its start and end.
      const run = await RunLog.start(store, { command: redactCommandLine(ctx.argv), profile: settings.profile.name, baseUrl, service: guardService(settings), lang: io.lang, env: ctx.env });
      runId = run.id;
      sheetResults?.setRun(run.id);
      renderRunStarted(io, run.id);
      try {
        await sendAll(store, waiter, run);
      } finally {
        const failed = await run.finish();
        if (failed) renderNotice(io, msg('runs.writeFailed', { id: run.id, cause: failed.text ?? failed.message }));
        // GitHub Actions shows the ledger on the job's page (with or without --wait).
        if (ctx.env.GITHUB_STEP_SUMMARY) {
          const view = await readRun(store, run.id, { usualMs: values['wait-timeout'] * 1000 }).catch(() => null);
          if (view) appendStepSummary(io, ctx.env, view, values['wait-timeout'] * 1000);
        }
      }
    });
  } catch (error) {
    // The store failed during the run: the results (contract ids included) are still its
    // truth, shown in full with a warning that they are not all in the store; exit 74.
    if (!(error instanceof StoreIncompleteError)) throw error;
    notStored = error;
  } finally {
    progress.stop();
  }
  const interrupted = ctx.signal.aborted;
  await finish(sheetResults, { interrupted, runId, ...(notStored ? { notStored } : {}) });
  if (runId) renderRunEnded(io, runId);
  if (notStored) return { code: notStored.exitCode, ...(tally.results ? { results: tally.results } : {}) };
  if (input.report && tally.results) writeJunitReport(input.report, tally.results, { seconds: (Date.now() - started) / 1000, timestamp: now.toISOString(), lang: io, runId });
  // Ctrl-C: what was in flight is recorded; running the same command again sends only the rest.
  return { code: interrupted ? ExitCode.interrupted : tally.exitCode(), ...(tally.results ? { results: tally.results } : {}) };

  /** The batch, sent through the run's store and waiter. */
  function sendAll(store: Store, waiter: ResultWaiter | undefined, run: RunLog): Promise<void> {
    return submitReports(reports(), {
      run,
      store,
      ...(waiter ? { wait: { waiter, timeoutMs: values['wait-timeout'] * 1000 } } : {}),
      profile: settings.profile.name,
      baseUrl,
      service: guardService(settings),
      tokens: session.tokens,
      ...(session.tls ? { tls: session.tls.connect } : {}),
      requestTimeoutMs: values['request-timeout'] * 1000,
      concurrency: values.concurrency,
      force: input.force,
      ...(baseUrl === SANDBOX_BASE_URL ? { unreachableHint: msg('run.hintSandboxDown') } : {}),
      unauthorizedHint: unauthorizedHint(session.plan, settings.profile.name),
      signal: ctx.signal,
      onRetry: (info) => renderRetry(io, info),
      progress,
      keeper: answerKeeper(settings.paths.home, store),
      repeated: plan.repeated,
      onResult: (index, result) => {
        sheetResults?.add(result);
        tally.add(index, result);
      },
    });
  }
}
