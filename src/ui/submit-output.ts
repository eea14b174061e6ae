import type { RequestDescription, RetryInfo } from '../service/client.js';
import type { AnswersAside, BatchProgress } from '../flows/submit-batch.js';
import { isSuccess, type Outcome } from '../domain/outcome.js';
import { type Lang, type Message, type MessageKey, type Voice, msg, say } from '../i18n/index.js';
import type { Io } from './io.js';
import { watchInterruptKey } from './interrupt-key.js';
import { personalText } from './personal.js';
import { printable } from './printable.js';
import { entryLabel, issueJson, issueWhere } from './sheet-labels.js';
import { createTheme, type Theme } from './theme.js';
import { createWarningSummary } from './warning-summary.js';
import { writeWrapped } from './wrap.js';
import type { SubmitResult, FileReport } from '../domain/report.js';


function icon(t: Theme, result: SubmitResult): string {
  if (isSuccess(result.outcome)) return t.success('✓');
  if (result.outcome === 'unknown' || result.outcome === 'timeout') return t.warning('?');
  return t.error('✗');
}

/** People's text on stderr, wrapped between words to the terminal's width (ui/wrap.ts). */
function write(io: Pick<Io, 'stderr'>, text: string): void {
  writeWrapped(io.stderr, text);
}

/** Results listed one by one after a stop (about a screenful); the rest are counted. */
const LISTED_AFTER_STOP = 10;

/** Service errors listed under a result; --json has them all. */
const SHOWN_ERROS = 10;

/** "submission" or "submissions" in `lang`, for `n`. */
const submissions = (lang: Lang | Voice, n: number): string => say(lang, n === 1 ? 'run.submissionOne' : 'run.submissionMany');

/** An outcome of the --json contract as people read it (for `n` of them): in English, the code itself. */
export function outcomeName(lang: Lang | Voice, outcome: string, n = 1): string {
  return say(lang, `run.${n === 1 ? 'outcome' : 'outcomes'}_${outcome}` as MessageKey);
}

/** One result for people; `lang` also says whether a person's data is shown whole (--reveal). */
function resultLines(t: Theme, result: SubmitResult, lang: Voice, hintsShown?: Set<string>): string[] {
  const message = say(lang, result.message);
  const hint = result.hint && say(lang, result.hint);
  const label = entryLabel(result, lang);
  const lines = [`${icon(t, result)} ${t.strong(printable(label))}  ${t.info(outcomeName(lang, result.outcome))}  ${printable(message)}`];
  for (const e of result.errors) lines.push(`    ${t.error(say(lang, 'run.errorLine'))} ${t.path(issueWhere(e, lang))}: ${say(lang, e.message)}`);
  // erros come from the service: a person's data in them masked, escaped before they reach the terminal.
  for (const e of result.erros.slice(0, SHOWN_ERROS)) {
    const text = personalText(lang, e.msg);
    lines.push(`    ${t.code(printable(e.codigo))} ${printable(text.length > 300 ? `${text.slice(0, 300)}…` : text)}`);
  }
  if (result.erros.length > SHOWN_ERROS) lines.push(`    ${t.muted(say(lang, 'run.moreErros', { n: result.erros.length - SHOWN_ERROS }))}`);
  // A hint is said once in a run: 192 files not sent after a Ctrl-C share one (issue 14's trial).
  if (hint && !hintsShown?.has(hint)) lines.push(`    ${t.info(say(lang, 'run.hintLabel'))} ${hint}`);
  hintsShown?.add(hint ?? '');
  return lines;
}

/** Announce profile and base URL on stderr before anything is sent (docs/cli-contract.md). */
export function renderTarget(io: Io, target: { profile: string; baseUrl: string; count: number; invalid?: number; duplicates?: number; wait?: { kind: 'listening' | 'following' | 'store'; url: string } }): void {
  const t = createTheme(io);
  const lang = io.lang;
  const notSent = [
    target.invalid ? say(lang, target.invalid === 1 ? 'run.invalidOne' : 'run.invalidMany', { n: target.invalid }) : '',
    target.duplicates ? say(lang, target.duplicates === 1 ? 'run.duplicateOne' : 'run.duplicateMany', { n: target.duplicates }) : '',
  ].filter(Boolean);
  const rest = notSent.length ? say(lang, 'run.notSent', { list: notSent.join(', ') }) : '';
  const line = say(lang, 'run.target', { n: target.count, submissions: submissions(lang, target.count), url: t.strong(target.baseUrl), profile: t.strong(target.profile) });
  write(io, `${t.muted('→')} ${line}${rest}\n`);
  if (target.wait) {
    const how = say(lang, target.wait.kind === 'listening' ? 'run.waitListening' : target.wait.kind === 'following' ? 'run.waitFollowing' : 'run.waitStore', { url: target.wait.url });
    write(io, `${t.muted('→')} ${say(lang, 'run.resultsVia', { how })}\n`);
  }
}

export function renderSaved(io: Io, path: string): void {
  write(io, `${createTheme(io).muted(say(io.lang, 'submit.saved'))} ${path}\n`);
}

/** One line per retry the client makes (429, or a connection that never opened). */
export function renderRetry(io: Io, info: RetryInfo): void {
  const wait = info.delayMs < 1000 ? `${Math.round(info.delayMs)} ms` : `${(info.delayMs / 1000).toFixed(1)} s`;
  const code = (info.error as { code?: unknown }).code;
  const what = info.reason === 'rate_limited' ? msg('service.retryRateLimited') : msg('service.retryNotSent', { code: typeof code === 'string' ? code : info.error.name });
  renderNotice(io, msg('service.retryIn', { what, wait, next: info.attempt + 1, max: info.maxAttempts }));
}

/** Where the results sheets were written (src/sheets/results.ts). */
/** The results files written, and the sheets that got none (a header that failed: said plainly). */
export function renderResultsWritten(io: Io, paths: readonly string[], unwritten: readonly string[] = []): void {
  const t = createTheme(io);
  for (const path of paths) write(io, `${t.muted('→')} ${say(io.lang, 'sheet.resultsWritten', { path: t.strong(path) })}\n`);
  for (const file of unwritten) write(io, `${t.muted('→')} ${say(io.lang, 'sheet.resultsNone', { file })}\n`);
}

export function renderNotice(io: Io, notice: Message): void {
  write(io, `${createTheme(io).warning(say(io.lang, 'run.warningLabel'))} ${say(io.lang, notice)}\n`);
}

/** People's text is written in pieces of about this many characters, not report by report. */
const TEXT_PIECE_CHARS = 64 * 1024;

/**
 * Validation problems of files that will not be sent (and warnings and notes of those that
 * will), report by report as they are read; `flush` before anything else is said. A sheet's
 * rows' warnings are summarised, one line per kind, at the flush (issue 24); `quiet`:
 * errors only.
 */
export function createInvalidFilesOutput(io: Io, quiet = false): { add(report: FileReport): void; flush(): void } {
  const t = createTheme(io);
  const lang: Voice = io;
  const summary = createWarningSummary(lang);
  let pending = '';
  const writePending = (): void => {
    if (pending) write(io, pending);
    pending = '';
  };
  return {
    add(report) {
      if (io.json) return;
      const summarised = report.row !== undefined && !report.header;
      if (summarised) summary.add(report);
      const warnings = quiet || summarised ? [] : report.warnings;
      const notes = quiet ? [] : (report.notes ?? []);
      if (report.ok && warnings.length === 0 && notes.length === 0) return;
      const mark = report.header && report.ok ? t.muted('•') : report.ok ? t.success('✓') : t.error('✗');
      const notSent = `  ${t.info(say(lang, 'run.outcome_invalid'))}  ${say(lang, 'run.invalidNotSent')}`;
      const lines = [`${mark} ${t.strong(entryLabel(report, lang))}${report.ok ? '' : notSent}`];
      for (const e of report.errors) lines.push(`    ${t.error(say(lang, 'run.errorLine'))} ${t.path(issueWhere(e, lang))}: ${say(lang, e.message)}`);
      for (const w of warnings) lines.push(`    ${t.warning(say(lang, 'run.warningLine'))} ${t.path(issueWhere(w, lang))}: ${say(lang, w.message)}`);
      for (const note of notes) lines.push(`    ${t.muted(say(lang, 'validate.noteLabel'))} ${say(lang, note)}`);
      pending += `${lines.join('\n')}\n`;
      if (pending.length >= TEXT_PIECE_CHARS) writePending();
    },
    flush() {
      const kinds = quiet ? [] : summary.lines();
      if (kinds.length > 0) pending += `${[t.strong(say(lang, 'validate.warningsHeading')), ...kinds.map((kind) => `    ${t.warning(say(lang, 'run.warningLine'))} ${kind}`)].join('\n')}\n`;
      writePending();
    },
  };
}

/** Validation problems of files that will not be sent. */
export function renderInvalidFiles(io: Io, reports: readonly FileReport[]): void {
  const output = createInvalidFilesOutput(io);
  for (const report of reports) output.add(report);
  output.flush();
}

/**
 * Progress while a batch runs. On a terminal a spinner (ora, loaded only then) counts
 * what is in flight; otherwise one plain line per answer and per result. With --json the
 * results are the document on stdout: only the spinner, on stderr, and only on a terminal.
 */
export async function createSubmitProgress(io: Io, total: number, signal?: AbortSignal, quiet = false): Promise<BatchProgress & { stop(): void }> {
  const t = createTheme(io);
  const lang: Voice = io;
  let answered = 0;
  let waiting = 0;
  const hintsShown = new Set<string>();
  const print = (lines: string[]): void => {
    write(io, `${lines.join('\n')}\n`);
  };
  // After a stop, the results that follow (rows not sent, results no longer awaited) are
  // listed up to a screenful, then counted: one summary line at the end (issue 24: a
  // Ctrl-C in a 5,000-row run printed 45,175 lines). --verbose lists every one.
  let afterStop = 0;
  const held = new Map<string, number>();
  const shown = (r: SubmitResult): string[] => {
    if (quiet && isSuccess(r.outcome)) return [];
    if (signal?.aborted && !io.verbose && ++afterStop > LISTED_AFTER_STOP) {
      held.set(r.outcome, (held.get(r.outcome) ?? 0) + 1);
      return [];
    }
    return resultLines(t, r, lang, hintsShown);
  };
  const heldLine = (): string[] => {
    if (held.size === 0) return [];
    const n = [...held.values()].reduce((a, b) => a + b, 0);
    const parts = [...held].map(([outcome, count]) => `${count} ${outcomeName(lang, outcome, count)}`).join(', ');
    return [`${t.muted('…')} ${say(lang, 'run.heldAfterStop', { n, parts })}`];
  };
  const interruptedLine = (): string => t.warning(say(lang, 'run.interrupted'));
  // A CI log (--json, no terminal) still says why the run stopped; the lines are the document's.
  if (io.json && !io.canAnimate) {
    const onAbort = (): void => print([interruptedLine()]);
    signal?.addEventListener('abort', onAbort, { once: true });
    return { stop: () => signal?.removeEventListener('abort', onAbort) };
  }
  if (!io.canAnimate) {
    const onAbort = (): void => print([interruptedLine()]);
    signal?.addEventListener('abort', onAbort, { once: true });
    const printShown = (r: SubmitResult): void => {
      const lines = shown(r);
      if (lines.length > 0) print(lines);
    };
    return {
      onAnswer: printShown,
      onWaiting: (r) => {
        if (!quiet) print([`${t.muted('…')} ${say(lang, 'run.waitingFor', { file: entryLabel(r, lang), id: r.idContrato ?? '' })}`]);
      },
      onHeldElsewhere: (item, run) => print([`${t.muted('…')} ${say(lang, 'runs.inFlightWaiting', { id: item.body.idProposta, run })}`]),
      onResult: printShown,
      stop: () => {
        signal?.removeEventListener('abort', onAbort);
        const lines = heldLine();
        if (lines.length > 0) print(lines);
      },
    };
  }
  const { default: ora } = await import('ora');
  // discardStdin off: ora's helper never sees Ctrl-C on a fresh stdin (ui/interrupt-key.ts).
  const spinner = ora({ stream: io.stderr as NodeJS.WritableStream & { isTTY?: boolean }, isEnabled: true, color: 'cyan', discardStdin: false });
  const status = (): string => {
    if (signal?.aborted) return say(lang, waiting ? 'run.stopping' : 'run.finishing');
    if (total <= 1) return say(lang, waiting ? 'run.waitingOne' : 'run.sending');
    const more = waiting ? say(lang, waiting === 1 ? 'run.waitingResultOne' : 'run.waitingResultMany', { n: waiting }) : '';
    return `${say(lang, 'run.answered', { done: answered, total })}${more}`;
  };
  spinner.start(status());
  const stopKeys = watchInterruptKey(io.stdin);
  const onAbort = (): void => above([interruptedLine()]);
  signal?.addEventListener('abort', onAbort, { once: true });
  const above = (lines: string[]): void => {
    if (!io.json && lines.length > 0) {
      spinner.clear();
      write(io, `${lines.join('\n')}\n`);
    }
    spinner.text = status();
    spinner.render();
  };
  return {
    onAnswer: (r) => {
      answered += 1;
      above(shown(r));
    },
    onWaiting: () => {
      waiting += 1;
      spinner.text = status();
    },
    onHeldElsewhere: (item, run) => above([`${t.muted('…')} ${say(lang, 'runs.inFlightWaiting', { id: item.body.idProposta, run })}`]),
    onResult: (r) => {
      waiting -= 1;
      above(shown(r));
    },
    stop: () => {
      signal?.removeEventListener('abort', onAbort);
      stopKeys();
      spinner.stop();
      const lines = io.json ? [] : heldLine();
      if (lines.length > 0) print(lines);
    },
  };
}

/** How a run ended, besides its results. */
interface RunEnd {
  interrupted: boolean;
  /** The run's id (docs/cli-contract.md, "Runs"): --json's `runId`. */
  runId?: string | undefined;
  /** The store's failure (StoreIncompleteError): the results are not all in it. */
  notStored?: { text: Message | undefined; message: string; hintText: Message | undefined; aside?: AnswersAside };
}

/** What a run came to, counted: every result, each outcome's count. */
export interface RunCounts {
  total: number;
  counts: ReadonlyMap<Outcome, number>;
}

/** The store's failure in the run's language, said on stderr; what --json says of it. */
function sayNotStored(io: Io, extra: RunEnd): { message: string; hint: string | undefined } | undefined {
  if (!extra.notStored) return undefined;
  const lang: Voice = io;
  const notStored = {
    message: extra.notStored.text ? say(lang, extra.notStored.text) : extra.notStored.message,
    hint: extra.notStored.hintText && say(lang, extra.notStored.hintText),
  };
  const t = createTheme(io);
  write(io, `${t.warning(say(lang, 'run.warningLabel'))} ${notStored.message}\n${notStored.hint ? `  ${t.info(say(lang, 'run.hintLabel'))} ${notStored.hint}\n` : ''}`);
  return notStored;
}

/** --json document, or the summary for people. */
export function renderSubmitResults(io: Io, results: readonly SubmitResult[], extra: RunEnd): void {
  if (!io.json) {
    renderSubmitSummary(io, countOutcomes(results), extra);
    return;
  }
  const lang: Voice = io;
  const notStored = sayNotStored(io, extra);
  // People's text follows the language (issue 14), in --json too; field names and outcome codes do not.
  const messageOf = (r: SubmitResult): string => say(lang, r.message);
  const hintOf = (r: SubmitResult): string | undefined => r.hint && say(lang, r.hint);
  const doc = {
    ok: !notStored && results.every((r) => isSuccess(r.outcome)),
    ...(extra.runId ? { runId: extra.runId } : {}),
    ...(extra.interrupted ? { interrupted: true } : {}),
    ...(notStored ? { store: { ok: false, message: notStored.message, hint: notStored.hint ?? null, ...asideJson(extra.notStored?.aside) } } : {}),
    results: results.map((r) => ({
      file: r.file,
      ...(r.row !== undefined ? { row: r.row } : {}),
      outcome: r.outcome,
      httpStatus: r.httpStatus,
      idContrato: r.idContrato,
      erros: r.erros.map((e) => ({ ...e, msg: personalText(io, e.msg) })),
      result: r.result && { ...r.result, reason: personalText(io, r.result.reason) },
      idProposta: r.idProposta,
      message: messageOf(r),
      ...(hintOf(r) ? { hint: hintOf(r) } : {}),
      errors: r.errors.map((e) => issueJson(e, lang, r.row !== undefined)),
      warnings: r.warnings.map((w) => issueJson(w, lang, r.row !== undefined)),
    })),
  };
  io.stdout.write(`${JSON.stringify(doc)}\n`);
  // A CI log shows stderr: each file that did not succeed, with why, and the counts (issue 14).
  const failed = results.filter((r) => !isSuccess(r.outcome));
  // An invalid file also names its fields (the first five), so the log says what to fix.
  // Its hint too, once per run as on a terminal (issue 24: a wrong token's hint was only in the JSON).
  const hintsShown = new Set<string>();
  const lines = failed.flatMap((r) => {
    const hint = hintOf(r);
    const first = hint !== undefined && !hintsShown.has(hint);
    if (hint) hintsShown.add(hint);
    return [
      `✗ ${entryLabel(r, lang)}  ${outcomeName(lang, r.outcome)}  ${messageOf(r)}`,
      ...r.errors.slice(0, 5).map((e) => `    ${issueWhere(e, lang)}: ${say(lang, e.message)}`),
      ...(first ? [`    ${say(lang, 'run.hintLabel')} ${hint}`] : []),
    ];
  });
  if (results.length > 1 || failed.length > 0) lines.push(summaryLine(countOutcomes(results), lang, extra.interrupted));
  if (lines.length) write(io, `${lines.map((line) => printable(line)).join('\n')}\n`);
}

/**
 * The summary for people, from the counts alone: a run of a million rows holds no result
 * for it (each row had its line as it came).
 */
export function renderSubmitSummary(io: Io, run: RunCounts, extra: RunEnd): void {
  sayNotStored(io, extra);
  if (run.total <= 1 && !extra.interrupted) return;
  const t = createTheme(io);
  const line = summaryLine(run, io.lang, extra.interrupted);
  const all = [...run.counts.keys()].every(isSuccess);
  write(io, `${all ? t.success(line) : t.error(line)}\n`);
}

/** Where the answers the store refused went: `keptIn` (the file) and `kept`, and `unrecorded` (each to record with econsig settle). */
function asideJson(aside: AnswersAside | undefined): Record<string, unknown> {
  if (!aside) return {};
  return { keptIn: aside.kept > 0 ? aside.file : null, kept: aside.kept, unrecorded: aside.unrecorded };
}

function countOutcomes(results: readonly SubmitResult[]): RunCounts {
  const counts = new Map<Outcome, number>();
  for (const r of results) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  return { total: results.length, counts };
}

/** "6 submissions: 4 accepted, 1 invalid, 1 skipped", counted per outcome. */
function summaryLine(run: RunCounts, lang: Lang | Voice, interrupted: boolean): string {
  const parts = [...run.counts].map(([outcome, n]) => `${n} ${outcomeName(lang, outcome, n)}`);
  return `${say(lang, 'run.summary', { n: run.total, submissions: submissions(lang, run.total), parts: parts.join(', ') })}${interrupted ? say(lang, 'run.summaryInterrupted') : ''}`;
}

/** --dry-run: the exact requests, token redacted. */
export function renderDryRun(io: Io, requests: ReadonlyArray<{ file: string; row?: number; request: RequestDescription }>, reports: readonly FileReport[]): void {
  if (io.json) {
    io.stdout.write(
      `${JSON.stringify({
        ok: reports.every((r) => r.ok),
        dryRun: true,
        requests: requests.map((r) => ({ file: r.file, ...(r.row !== undefined ? { row: r.row } : {}), ...r.request })),
        files: reports.map((r) => ({ file: r.file, ...(r.row !== undefined ? { row: r.row } : {}), ok: r.ok, errors: r.errors.map((e) => issueJson(e, io, r.row !== undefined)), warnings: r.warnings.map((w) => issueJson(w, io, r.row !== undefined)) })),
      })}\n`,
    );
    return;
  }
  const t = createTheme(io);
  for (const item of requests) {
    const request = item.request;
    const headers = Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`);
    io.stdout.write(`# ${entryLabel(item, io.lang)}\n${request.method} ${request.url}\n${headers.join('\n')}\n\n${JSON.stringify(request.body, null, 2)}\n\n`);
  }
  write(io, `${t.muted(say(io.lang, requests.length === 1 ? 'submit.dryRunOne' : 'submit.dryRunMany', { n: requests.length }))}\n`);
}
