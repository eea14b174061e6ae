import type { Context, SubmitInput } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { writeJunitReport } from '../flows/junit.js';
import { checkTarget, dryRunRequests, sendPlan, inInputOrder, invalidResult, runSubmit, submitExitCode, withRecord } from '../flows/run-submit.js';
import { StoreIncompleteError } from '../flows/submit-batch.js';
import { expandInputs } from '../flows/inputs.js';
import { checkSource, reportsExitCode } from '../flows/validate-files.js';
import { isLoopbackUrl } from '../service/client.js';
import { type ResolvedSettings, guardService, listenerSettings, payloadRetentionMs, requireBaseUrl, resolveSettings } from '../settings/settings.js';
import { SANDBOX_BASE_URL, type Settings } from '../settings/keys.js';
import {
  createSubmitProgress,
  renderDryRun,
  renderInvalidFiles,
  renderNotice,
  renderResultsWritten,
  renderRetry,
  renderSubmitResults,
  renderTarget,
} from '../ui/submit-output.js';
import { confirmTarget } from '../ui/prompts.js';
import { msg } from '../i18n/index.js';
import { isSheetInput } from '../sheets/kind.js';
import { checkOutputPath } from '../safe-file.js';
import type { SheetResults } from '../flows/sheet-results.js';
import { renderStoreNotice } from '../ui/history-output.js';
import type { StoreNotice } from '../record/record.js';
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
  const sending: Sending = { input, ctx, settings, now, notices: [] };

  const fromWizard = input.files.length === 0 || input.interactive;
  if (fromWizard) {
    const { submitFromWizard } = await import('./submit-wizard.js');
    // Settings again for each send: a clerk may log in in another terminal between two tries.
    const send = async (reports: FileReport[]) =>
      sendReports({ ...sending, settings: await resolveSettings({ env: ctx.env, globals: ctx.globals, flags: settingFlags(input) }), fromWizard: true }, reports);
    return submitFromWizard(input, ctx, options, settings, send);
  }
  let reports: FileReport[];
  // Folders expanded first: a folder may hold sheets (*.csv, *.xlsx) beside JSON files.
  const sources = expandInputs(input.files, options.cwd);
  if (sources.some((source) => isSheetInput(source.file, input.format))) {
    const sheets = await import('../flows/sheet-inputs.js');
    const read = await sheets.validateInputs(sources, { ...options, lang: io.lang, sheet: input.sheet, format: input.format, row: input.row });
    reports = read.reports;
    sending.notices = read.notices;
    sending.openResults = async () => (await import('../flows/sheet-results.js')).openSheetResults(read.sheets, read.reports, input.results, options.cwd, io.lang);
  } else {
    reports = sources.map((source) => checkSource(source, options));
  }
  return (await sendReports(sending, reports)).code;
}

/** What sending needs besides the reports. */
interface Sending {
  input: SubmitInput;
  ctx: Context;
  settings: ResolvedSettings;
  now: Date;
  fromWizard?: boolean;
  /** Sheets (src/sheets): their header notices, and where results go back. */
  notices: FileReport[];
  openResults?: () => Promise<SheetResults>;
}

/** Send the valid reports (or show them, with --dry-run) and render the run; the exit code, and the results when anything was tried. */
async function sendReports(sending: Sending, reports: FileReport[]): Promise<{ code: number; results?: SubmitResult[] }> {
  const { input, ctx, settings, now, notices, openResults } = sending;
  const { io } = ctx;
  const fromWizard = sending.fromWizard === true;
  let sheetResults: SheetResults | undefined;
  const baseUrl = requireBaseUrl(settings);
  if (input.dryRun) {
    const oauth = settings.token?.source !== 'env' && (settings.values['auth.method'] === 'client-credentials' || (ctx.env.ECONSIG_CLIENT_SECRET ?? '') !== '');
    if (oauth) renderNotice(io, msg('service.dryRunOauth'));
    else if (!settings.token) renderNotice(io, msg('service.dryRunNoToken'));
    renderInvalidFiles(io, reports);
    renderDryRun(io, dryRunRequests(reports, baseUrl, settings.token?.token), reports);
    return { code: reportsExitCode(reports) };
  }

  // Nothing to send (every file unreadable or invalid): say so without asking for a token.
  if (!reports.some((r) => r.ok)) {
    const results = reports.map(invalidResult);
    renderInvalidFiles(io, [...notices, ...reports]);
    if (openResults) renderResultsWritten(io, await (await openResults()).finish(results));
    renderSubmitResults(io, results, { interrupted: false });
    return { code: submitExitCode(results), results };
  }

  // No token (or client secret), unusable TLS files, or a plain-http remote host: fail before anything leaves.
  const { openAuthSession, unauthorizedHint } = await import('../flows/auth-session.js');
  const session = openAuthSession({ settings, env: ctx.env });
  ctx.defer(() => session.close());
  for (const warning of session.tls?.warnings ?? []) renderNotice(io, warning);
  checkTarget(baseUrl);
  // The files the run writes: a link or a FIFO there is refused before anything is sent.
  if (input.report) checkOutputPath(input.report);
  renderInvalidFiles(io, [...notices, ...reports]);
  if (openResults) sheetResults = await openResults();
  const sendable = reports.filter((r) => r.ok).length;
  const plan = sendPlan(reports);
  // A real service (not this machine) on a terminal: say where, and ask, unless --yes.
  // The wizard's own "Submit" was the confirmation; CI never prompts.
  if (!input.yes && io.canPrompt && !fromWizard && !isLoopbackUrl(baseUrl)) {
    const submissions = msg(plan.toSend === 1 ? 'run.submissionOne' : 'run.submissionMany');
    await confirmTarget(io, msg('run.confirmSend', { n: plan.toSend, submissions, url: baseUrl, profile: settings.profile.name }), ctx.signal);
  }
  // Certificate dates, TLS trust and the client certificate, and the first token: before any POST.
  await session.prepare(baseUrl);
  const values = settings.values;
  const shown = await createSubmitProgress(io, sendable, ctx.signal);
  const progress = sheetResults ? sheetResults.tee(shown, input.wait) : shown;
  const started = Date.now();
  let results;
  try {
    // With a team store and no --listen, the receiver is elsewhere: wait on the store alone.
    const wait = input.wait ? { listener: waitListener(settings), listen: !(values['database-url'] && !input.listen) } : undefined;
    const record = { home: settings.paths.home, databaseUrl: values['database-url'], payloadRetentionMs: payloadRetentionMs(values), onNotice: (notice: StoreNotice) => renderStoreNotice(io, notice), wait };
    results = await withRecord(record, (store, waiter) => {
      renderTarget(io, { profile: settings.profile.name, baseUrl, count: plan.toSend, invalid: plan.invalid, duplicates: plan.duplicates, ...(waiter ? { wait: waiter.mode } : {}) });
      return runSubmit(reports, {
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
      });
    });
  } catch (error) {
    progress.stop();
    // The store failed during the run: the results (contract ids included) are still its
    // truth, printed in full with a warning that they are not all in the store; exit 74.
    if (!(error instanceof StoreIncompleteError)) throw error;
    const all = inInputOrder(reports, error.results);
    if (sheetResults) renderResultsWritten(io, await sheetResults.finish(all));
    renderSubmitResults(io, all, { interrupted: ctx.signal.aborted, notStored: error });
    return { code: error.exitCode, results: all };
  }
  progress.stop();

  const interrupted = ctx.signal.aborted;
  if (sheetResults) renderResultsWritten(io, await sheetResults.finish(results));
  renderSubmitResults(io, results, { interrupted });
  if (input.report) writeJunitReport(input.report, results, { seconds: (Date.now() - started) / 1000, timestamp: now.toISOString(), lang: io });
  // Ctrl-C: what was in flight is recorded; running the same command again sends the rest.
  return { code: interrupted ? ExitCode.interrupted : submitExitCode(results), results };
}
