import type { HistoryPage, ImportReport, StoreNotice } from '../record/record.js';
import { type Lang, formatLocalTime, isMessageKey, say } from '../i18n/index.js';
import { outcomeName } from './submit-output.js';
import type { Io } from './io.js';
import { personalText } from './personal.js';
import { printable } from './printable.js';
import { createTheme } from './theme.js';

/**
 * Newest first; --json as the contract's `{"entries": [...]}`, plus `more` and `unreadable`.
 * The service's words (erros, reasons, the recorded message) with a person's data masked unless --reveal.
 */
export function renderHistory(io: Io, page: HistoryPage): void {
  const t = createTheme({ color: io.colorStdout });
  const lang: Lang = io.lang;
  const more = page.more >= page.moreCap ? say(lang, 'history.orMore', { n: page.moreCap.toLocaleString(lang) }) : String(page.more);
  for (const problem of page.unreadable) io.stderr.write(`${t.warning(say(lang, 'run.warningLabel'))} ${say(lang, 'history.unreadableRow', { problem: printable(problem) })}\n`);
  if (io.json) {
    const entries = page.entries.map((r) => ({
      idProposta: r.idProposta,
      idContrato: r.answer?.idContrato ?? null,
      file: r.file,
      // Sent but never answered (the process died mid-flight): it may exist.
      outcome: r.answer?.outcome ?? 'unknown',
      httpStatus: r.answer?.httpStatus ?? null,
      sentAt: r.sentAt,
      result: r.result ? { at: r.result.at, outcome: r.result.outcome, status: r.result.status, reason: personalText(io, r.result.reason) } : null,
      erros: (r.answer?.erros ?? []).map((e) => ({ ...e, msg: personalText(io, e.msg) })),
      message: personalText(io, r.answer?.message ?? 'sent, no answer recorded'),
      profile: r.profile,
      baseUrl: r.baseUrl,
      service: r.service,
    }));
    io.stdout.write(`${JSON.stringify({ entries, more: page.more, moreIsAtLeast: page.more >= page.moreCap, unreadable: page.unreadable.length })}\n`);
    hintSettle(io, page);
    return;
  }
  if (page.entries.length === 0) {
    io.stderr.write(`${t.muted(say(lang, 'history.noMatch'))}\n`);
    return;
  }
  const lines = page.entries.map((r) => {
    const outcome = r.answer ? nameOf(lang, r.answer.outcome) : say(lang, 'history.noAnswer');
    const result = r.result ? ` → ${nameOf(lang, r.result.outcome)}${r.result.reason ? ` (${personalText(io, r.result.reason)})` : ''}` : '';
    const contract = r.answer?.idContrato ? `  ${r.answer.idContrato}` : '';
    // The rejected reason: the service's codes, else our message (the store's English
    // record; in Portuguese, what that outcome means).
    const why =
      r.answer && r.answer.outcome !== 'accepted' && r.answer.outcome !== 'approved'
        ? `  ${personalText(io, r.answer.erros.length > 0 ? r.answer.erros.map((e) => `${e.codigo}: ${e.msg}`).join('; ') : whyOf(lang, r.answer.outcome, r.answer.message))}`
        : '';
    return `${t.muted(formatLocalTime(r.sentAt))}  ${t.strong(printable(r.idProposta))}  ${t.info(outcome)}${printable(result)}${contract}  ${t.muted(printable(r.file === '(wizard)' ? say(lang, 'run.wizardEntry') : (r.file ?? '')))}${printable(why)}`;
  });
  io.stdout.write(`${lines.join('\n')}\n`);
  if (page.more > 0) io.stderr.write(`${t.muted(say(lang, 'history.more', { more }))}\n`);
  hintSettle(io, page);
}

/** An unknown entry listed (`--outcome unknown` lists only those): how to settle it, on stderr. */
function hintSettle(io: Io, page: HistoryPage): void {
  if (!page.entries.some((r) => r.answer === null || r.answer.outcome === 'unknown')) return;
  const t = createTheme(io);
  io.stderr.write(`  ${t.info(say(io.lang, 'run.hintLabel'))} ${say(io.lang, 'history.hintUnknown')}\n`);
}

/** An outcome of an answer or a result, as people read it in `lang`. */
function nameOf(lang: Lang, outcome: string): string {
  if (outcome === 'cancelled') return say(lang, 'history.cancelled');
  return isMessageKey(`run.outcome_${outcome}`) ? outcomeName(lang, outcome) : outcome;
}

function whyOf(lang: Lang, outcome: string, message: string | null | undefined): string {
  if (lang === 'en') return message ?? '';
  const key = `history.why_${outcome}`;
  return isMessageKey(key) ? say(lang, key) : (message ?? '');
}

/** What opening the store did (an old journal imported, spellings of a service merged, kept answers recorded), a note on stderr. */
export function renderStoreNotice(io: Io, notice: StoreNotice): void {
  const t = createTheme(io);
  const lang = io.lang;
  let said: string;
  if (notice.kind === 'journalImported') said = importSaid(lang, notice.report);
  else if (notice.kind === 'servicesMerged') {
    const { proposals, submissions } = notice;
    said = say(lang, proposals === 1 ? 'history.servicesMergedOne' : 'history.servicesMerged', { proposals: proposals.toLocaleString(lang), submissions: submissions.toLocaleString(lang) });
  } else {
    const { recorded, left, file } = notice.report;
    const stay = left > 0 ? say(lang, left === 1 ? 'history.answersLeftOne' : 'history.answersLeft', { n: left.toLocaleString(lang) }) : '';
    said = say(lang, recorded === 1 ? 'history.answersRecordedOne' : 'history.answersRecorded', { n: recorded.toLocaleString(lang), file: printable(file), left: stay });
  }
  io.stderr.write(`${t.info(say(io.lang, 'history.noteLabel'))} ${said}\n`);
}

/** The one-time import of an old journal.jsonl. */
function importSaid(lang: Lang, report: ImportReport): string {
  const skipped = report.skipped > 0 ? say(lang, report.skipped === 1 ? 'history.importSkippedOne' : 'history.importSkipped', { n: report.skipped }) : '';
  return say(lang, report.imported === 1 ? 'history.importedOne' : 'history.imported', { n: report.imported, journal: printable(report.journal), skipped, renamed: printable(report.renamedTo) });
}
