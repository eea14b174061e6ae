/**
 * `econsig settle` output: one line on stderr, or with --json one document on stdout,
 * `{"ok": true, "idProposta", "outcome", "idContrato", "sentAt", "file", "service"}`.
 */
import type { SubmissionRecord } from '../record/record.js';
import { localTime, say } from '../i18n/index.js';
import type { Io } from './io.js';
import { printable } from './printable.js';
import { createTheme } from './theme.js';

export function renderSettled(io: Io, settled: SubmissionRecord): void {
  const contract = settled.answer?.idContrato ?? null;
  if (io.json) {
    const { idProposta, sentAt, file, service } = settled;
    io.stdout.write(`${JSON.stringify({ ok: true, idProposta, outcome: settled.answer?.outcome ?? null, idContrato: contract, sentAt, file, service })}\n`);
    return;
  }
  const t = createTheme(io);
  const values = { id: printable(settled.idProposta), when: localTime(settled.sentAt) };
  const line = contract === null ? say(io.lang, 'settle.notSent', values) : say(io.lang, 'settle.contract', { ...values, contract: printable(contract) });
  io.stderr.write(`${t.success('✓')} ${line}\n`);
}
