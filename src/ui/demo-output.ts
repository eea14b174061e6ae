import { say } from '../i18n/index.js';
import type { Io } from './io.js';
import { createTheme } from './theme.js';
import type { FileReport } from '../domain/report.js';

function step(io: Io, n: number, text: string): void {
  if (io.json) return;
  const t = createTheme(io);
  io.stderr.write(`\n${t.strong(`${n}.`)} ${text}\n`);
}


export function renderDemoValidated(io: Io, report: FileReport): void {
  const t = createTheme(io);
  const lang = io.lang;
  step(io, 1, say(lang, 'demo.step1', { file: t.path(report.file) }));
  if (io.json) return;
  const lines = [report.ok ? `   ${t.success('✓')} ${say(lang, 'demo.valid')}` : `   ${t.error('✗')} ${say(lang, 'demo.invalid')}`];
  for (const e of report.errors) lines.push(`   ${t.error(say(lang, 'run.errorLine'))} ${t.path(e.path)}: ${say(lang, e.message)}`);
  for (const w of report.warnings) lines.push(`   ${t.warning(say(lang, 'run.warningLine'))} ${t.path(w.path)}: ${say(lang, w.message)}`);
  io.stderr.write(`${lines.join('\n')}\n`);
}

export function renderDemoStart(io: Io, info: { sandboxUrl: string; token: string; webhookUrl: string }): void {
  const t = createTheme(io);
  const lang = io.lang;
  step(io, 2, say(lang, 'demo.step2'));
  if (!io.json) {
    io.stderr.write(`   ${say(lang, 'demo.sandbox', { url: t.strong(info.sandboxUrl), token: t.muted(info.token.slice(0, 8)) })}\n   ${say(lang, 'demo.listener', { url: t.strong(info.webhookUrl) })}\n`);
  }
  step(io, 3, say(lang, 'demo.step3'));
}

export function renderDemoEnd(io: Io, ok: boolean): void {
  if (io.json) return;
  const t = createTheme(io);
  const lang = io.lang;
  io.stderr.write(
    ok
      ? `\n${t.success(say(lang, 'demo.complete'))} ${say(lang, 'demo.next')}\n  econsig sandbox                                   ${say(lang, 'demo.nextSandbox')}\n  econsig submit --file proposal.json --wait        ${say(lang, 'demo.nextSubmit')}\n  econsig --help\n`
      : `\n${t.error(say(lang, 'demo.failed'))} ${say(lang, 'demo.failedWhy')}\n`,
  );
}
