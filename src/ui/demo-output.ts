import { type Lang, tr } from '../i18n/index.js';
import type { Io } from './io.js';
import { createTheme } from './theme.js';
import type { FileReport } from '../domain/report.js';

function step(io: Io, n: number, text: string): void {
  if (io.json) return;
  const t = createTheme(io);
  io.stderr.write(`\n${t.strong(`${n}.`)} ${text}\n`);
}

const langOf = (io: Io): Lang => io.lang ?? 'en';

export function renderDemoValidated(io: Io, report: FileReport): void {
  const t = createTheme(io);
  const lang = langOf(io);
  step(io, 1, tr(lang, 'demo.step1', { file: t.path(report.file) }));
  if (io.json) return;
  const lines = [report.ok ? `   ${t.success('✓')} ${tr(lang, 'demo.valid')}` : `   ${t.error('✗')} ${tr(lang, 'demo.invalid')}`];
  for (const e of report.errors) lines.push(`   ${t.error(tr(lang, 'errorLine'))} ${t.path(e.path)}: ${e.message}`);
  for (const w of report.warnings) lines.push(`   ${t.warning(tr(lang, 'warningLine'))} ${t.path(w.path)}: ${w.message}`);
  io.stderr.write(`${lines.join('\n')}\n`);
}

export function renderDemoStart(io: Io, info: { sandboxUrl: string; token: string; webhookUrl: string }): void {
  const t = createTheme(io);
  const lang = langOf(io);
  step(io, 2, tr(lang, 'demo.step2'));
  if (!io.json) {
    io.stderr.write(`   ${tr(lang, 'demo.sandbox', { url: t.strong(info.sandboxUrl), token: t.muted(info.token.slice(0, 8)) })}\n   ${tr(lang, 'demo.listener', { url: t.strong(info.webhookUrl) })}\n`);
  }
  step(io, 3, tr(lang, 'demo.step3'));
}

export function renderDemoEnd(io: Io, ok: boolean): void {
  if (io.json) return;
  const t = createTheme(io);
  const lang = langOf(io);
  io.stderr.write(
    ok
      ? `\n${t.success(tr(lang, 'demo.complete'))} ${tr(lang, 'demo.next')}\n  econsig sandbox                                   ${tr(lang, 'demo.nextSandbox')}\n  econsig submit --file proposal.json --wait        ${tr(lang, 'demo.nextSubmit')}\n  econsig --help\n`
      : `\n${t.error(tr(lang, 'demo.failed'))} ${tr(lang, 'demo.failedWhy')}\n`,
  );
}
