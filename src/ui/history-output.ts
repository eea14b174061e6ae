import type { SubmissionRecord } from '../flows/journal-view.js';
import type { Io } from './io.js';
import { printable } from './printable.js';
import { createTheme } from './theme.js';

/** Newest first; --json as the contract's `{"entries": [...]}`. */
export function renderHistory(io: Io, records: readonly SubmissionRecord[]): void {
  if (io.json) {
    const entries = records.map((r) => ({
      idProposta: r.idProposta,
      idContrato: r.answer?.idContrato ?? null,
      file: r.file,
      // Sent but never answered (the process died mid-flight): it may exist.
      outcome: r.answer?.outcome ?? 'unknown',
      httpStatus: r.answer?.httpStatus ?? null,
      sentAt: r.sentAt,
      result: r.result ?? null,
      erros: r.answer?.erros ?? [],
      message: r.answer?.message ?? 'sent, no answer recorded',
      profile: r.profile,
      baseUrl: r.baseUrl,
    }));
    io.stdout.write(`${JSON.stringify({ entries })}\n`);
    return;
  }
  const t = createTheme({ color: io.colorStdout });
  if (records.length === 0) {
    io.stderr.write(`${t.muted('the journal has no submissions yet')}\n`);
    return;
  }
  const lines = records.map((r) => {
    const outcome = r.answer?.outcome ?? 'unknown (no answer recorded)';
    const result = r.result ? ` → ${r.result.outcome}${r.result.reason ? ` (${r.result.reason})` : ''}` : '';
    const contract = r.answer?.idContrato ? `  ${r.answer.idContrato}` : '';
    return `${t.muted(r.sentAt)}  ${t.strong(printable(r.idProposta))}  ${t.info(outcome)}${printable(result)}${contract}  ${t.muted(printable(r.file ?? ''))}`;
  });
  io.stdout.write(`${lines.join('\n')}\n`);
}
