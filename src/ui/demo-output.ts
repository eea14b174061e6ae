import type { FileReport } from '../flows/validate-files.js';
import type { Io } from './io.js';
import { createTheme } from './theme.js';

function step(io: Io, n: number, text: string): void {
  if (io.json) return;
  const t = createTheme(io);
  io.stderr.write(`\n${t.strong(`${n}.`)} ${text}\n`);
}

export function renderDemoValidated(io: Io, report: FileReport): void {
  const t = createTheme(io);
  step(io, 1, `Validate the bundled example ${t.path(report.file)} (econsig validate)`);
  if (io.json) return;
  const lines = [report.ok ? `   ${t.success('✓')} valid` : `   ${t.error('✗')} invalid`];
  for (const e of report.errors) lines.push(`   ${t.error('error  ')} ${t.path(e.path)}: ${e.message}`);
  for (const w of report.warnings) lines.push(`   ${t.warning('warning')} ${t.path(w.path)}: ${w.message}`);
  io.stderr.write(`${lines.join('\n')}\n`);
}

export function renderDemoStart(io: Io, info: { sandboxUrl: string; token: string; webhookUrl: string }): void {
  const t = createTheme(io);
  step(io, 2, `Start the sandbox (a local simulator of the service) and a webhook listener`);
  if (!io.json) {
    io.stderr.write(`   sandbox  ${t.strong(info.sandboxUrl)}  (temporary token ${t.muted(info.token.slice(0, 8))}…)\n   listener ${t.strong(info.webhookUrl)}\n`);
  }
  step(io, 3, 'Submit it and wait for the approval result (econsig submit --wait)');
}

export function renderDemoEnd(io: Io, ok: boolean): void {
  if (io.json) return;
  const t = createTheme(io);
  io.stderr.write(
    ok
      ? `\n${t.success('Demo complete.')} Next:\n  econsig sandbox                                   # keep a simulator running\n  econsig submit --file proposal.json --wait        # the real job (token: econsig auth login)\n  econsig --help\n`
      : `\n${t.error('The demo did not end as expected;')} the messages above say why.\n`,
  );
}
