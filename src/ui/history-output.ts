import type { ImportReport } from '../store/import-journal.js';
import type { HistoryPage } from '../store/store.js';
import type { Io } from './io.js';
import { printable } from './printable.js';
import { createTheme } from './theme.js';

/** Newest first; --json as the contract's `{"entries": [...]}`, plus `more` and `unreadable`. */
export function renderHistory(io: Io, page: HistoryPage): void {
  const t = createTheme({ color: io.colorStdout });
  const more = page.more >= page.moreCap ? `${page.moreCap.toLocaleString('en')} or more` : String(page.more);
  for (const problem of page.unreadable) io.stderr.write(`${t.warning('warning:')} unreadable row skipped: ${printable(problem)}\n`);
  if (io.json) {
    const entries = page.entries.map((r) => ({
      idProposta: r.idProposta,
      idContrato: r.answer?.idContrato ?? null,
      file: r.file,
      // Sent but never answered (the process died mid-flight): it may exist.
      outcome: r.answer?.outcome ?? 'unknown',
      httpStatus: r.answer?.httpStatus ?? null,
      sentAt: r.sentAt,
      result: r.result ? { at: r.result.at, outcome: r.result.outcome, status: r.result.status, reason: r.result.reason } : null,
      erros: r.answer?.erros ?? [],
      message: r.answer?.message ?? 'sent, no answer recorded',
      profile: r.profile,
      baseUrl: r.baseUrl,
    }));
    io.stdout.write(`${JSON.stringify({ entries, more: page.more, moreIsAtLeast: page.more >= page.moreCap, unreadable: page.unreadable.length })}\n`);
    return;
  }
  if (page.entries.length === 0) {
    io.stderr.write(`${t.muted('no submissions match')}\n`);
    return;
  }
  const lines = page.entries.map((r) => {
    const outcome = r.answer?.outcome ?? 'unknown (no answer recorded)';
    const result = r.result ? ` → ${r.result.outcome}${r.result.reason ? ` (${r.result.reason})` : ''}` : '';
    const contract = r.answer?.idContrato ? `  ${r.answer.idContrato}` : '';
    // The rejected reason: the service's codes, else our message.
    const why =
      r.answer && r.answer.outcome !== 'accepted' && r.answer.outcome !== 'approved'
        ? `  ${r.answer.erros.length > 0 ? r.answer.erros.map((e) => `${e.codigo}: ${e.msg}`).join('; ') : (r.answer.message ?? '')}`
        : '';
    return `${t.muted(r.sentAt)}  ${t.strong(printable(r.idProposta))}  ${t.info(outcome)}${printable(result)}${contract}  ${t.muted(printable(r.file ?? ''))}${printable(why)}`;
  });
  io.stdout.write(`${lines.join('\n')}\n`);
  if (page.more > 0) io.stderr.write(`${t.muted(`… ${more} more; narrow with --proposal, --contract, --outcome, --since, or raise --limit`)}\n`);
}

/** The one-time import of an old journal.jsonl, on stderr. */
export function renderImport(io: Io, report: ImportReport): void {
  const t = createTheme(io);
  const skipped = report.skipped > 0 ? `; ${report.skipped} unreadable line${report.skipped === 1 ? '' : 's'} skipped` : '';
  io.stderr.write(`${t.info('note:')} imported ${report.imported} line${report.imported === 1 ? '' : 's'} of ${printable(report.journal)} into the store${skipped}; the old file is now ${printable(report.renamedTo)}\n`);
}
