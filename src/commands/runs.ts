/**
 * `econsig runs`, `runs show <id|last>` and `runs wait <id|last>` (docs/cli-contract.md,
 * "Runs"): the profile's store opened, the run read (or waited for) through flows/runs.ts,
 * said by ui/.
 */
import type { Context, RunsInput } from '../cli-inputs.js';
import { EconsigError, ExitCode, UsageError } from '../errors.js';
import { type Ledger, ledgerBalances } from '../domain/report.js';
import { sinceInstant } from '../domain/since.js';
import { msg } from '../i18n/index.js';
import { openSettingsStore } from '../record/open.js';
import type { Store } from '../record/record.js';
import { readRun, resultsExitCode, type RunView, summaryLedger, waitForRun } from '../flows/runs.js';
import { type ResolvedSettings, resolveSettings } from '../settings/settings.js';
import { renderStoreNotice } from '../ui/history-output.js';
import { renderRun, renderRuns, renderRunWaiting } from '../ui/runs-output.js';
import { appendStepSummary, checkReportPath, writeRunReport } from '../ui/run-report.js';

export async function run(input: RunsInput, ctx: Context): Promise<number> {
  let since: string | undefined;
  if (input.action === 'list' && input.since !== undefined) {
    since = sinceInstant(input.since, new Date()) ?? undefined;
    if (since === undefined) throw new UsageError(msg('runs.badSince', { value: JSON.stringify(input.since) }), msg('history.badSinceHint'));
  }
  if (input.action === 'show' && input.report !== undefined) checkReportPath(input.report);
  // The profile's store: SQLite in the home, or the team store of database-url.
  const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals });
  const store = await openSettingsStore(settings, (notice) => renderStoreNotice(ctx.io, notice));
  try {
    if (input.action === 'list') {
      const summaries = await store.runs({ limit: input.limit, ...(since === undefined ? {} : { since }), ...(ctx.globals.profile === undefined ? {} : { profile: ctx.globals.profile }) });
      renderRuns(ctx.io, summaries.map((summary) => ({ run: summary.run, ledger: summaryLedger(summary) })));
      return ExitCode.ok;
    }
    const usualMs = settings.values['wait-timeout'] * 1000;
    if (input.action === 'show') {
      // People read the ledger and what needs a person; --json and the xlsx report hold every input.
      const every = ctx.io.json || (input.report !== undefined && /\.xlsx$/i.test(input.report));
      const view = checked(await found(store, input.id, every ? 'all' : { usualMs }));
      renderRun(ctx.io, view, usualMs);
      if (input.report !== undefined) await writeRunReport(ctx.io, input.report, view, usualMs);
      return view.ledger.denied + view.ledger.cancelled > 0 ? ExitCode.denied : ExitCode.ok;
    }
    return await waitFor(store, input, ctx, settings);
  } finally {
    await store.close();
  }
}

/** `runs wait`: the results still due, from the store; exits as submit --wait. */
async function waitFor(store: Store, input: Extract<RunsInput, { action: 'wait' }>, ctx: Context, settings: ResolvedSettings): Promise<number> {
  const usualMs = settings.values['wait-timeout'] * 1000;
  const first = checked(await found(store, input.id, { usualMs }));
  const timeoutMs = (input.timeout ?? settings.values['wait-timeout']) * 1000;
  renderRunWaiting(ctx.io, first.run.id, first.ledger.waiting, timeoutMs);
  await waitForRun(store, first.run.id, { timeoutMs, signal: ctx.signal });
  const view = checked(await found(store, first.run.id, ctx.io.json ? 'all' : { usualMs }));
  renderRun(ctx.io, view, usualMs);
  appendStepSummary(ctx.io, ctx.env, view, usualMs);
  if (ctx.signal.aborted) return ExitCode.interrupted;
  return resultsExitCode(view.ledger);
}

async function found(store: Store, id: string, inputs: Parameters<typeof readRun>[2]): Promise<RunView> {
  const view = await readRun(store, id, inputs);
  if (!view) throw new UsageError(msg('runs.notFound', { id }), msg('runs.notFoundHint', { location: store.location }));
  return view;
}

/** A ledger that does not balance is a bug of econsig's (an outcome it does not place): exit 70. */
function checked(view: RunView): RunView {
  if (ledgerBalances(view.ledger)) return view;
  const l: Ledger = view.ledger;
  const placed = l.invalid + l.notSent + l.skipped + l.accepted + l.rejected + l.notFound + l.unknown;
  throw new EconsigError(msg('runs.unbalanced', { id: view.run.id, inputs: l.inputs, placed, accepted: l.accepted, results: l.approved + l.denied + l.cancelled + l.waiting }), {
    exitCode: ExitCode.bug,
    hint: msg('runs.unbalancedHint', { id: view.run.id }),
  });
}
