/**
 * Issue 24: Portuguese everywhere a clerk looks, on a real 80x24 terminal (tmux) with
 * LANG=pt_BR.UTF-8: the sandbox's own lines, inquirer's key hints under `auth login`'s masked
 * prompt, and commander's usage words in the help.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInTerminal, skipTerminal } from './tmux-harness.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function terminal(args: string) {
  const home = mkdtempSync(join(tmpdir(), 'econsig-ptbr-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const run = runInTerminal(home, { LANG: 'pt_BR.UTF-8' }, args, { cols: 80, rows: 24 });
  cleanups.push(run.cleanup);
  return run;
}

describe.skipIf(skipTerminal)('pt-BR at 80x24 (tmux)', () => {
  it('the sandbox: its banner and its last line in Portuguese (the log lines are key=value data)', async () => {
    const run = terminal('sandbox --port 0 --token sbx_fixo');
    await run.term.waitFor('Ctrl-C para parar.');
    // SIGINT to econsig itself (a key would reach the pane's shell too, which would end the session).
    process.kill(run.term.pid(), 'SIGINT');
    await run.waitExit(10_000);
    const screen = run.term.pane(true);
    expect(screen).toMatch(/econsig sandbox escutando em http:\/\/127\.0\.0\.1:\d+ token sbx_fixo/);
    expect(screen).toMatch(/resultados: \S+ depois de 3s/);
    expect(screen).toContain('econsig sandbox parado; 0 resultado(s) de webhook não entregue(s)');
    expect(screen).not.toMatch(/\b(listening|results|after|to stop|stopped|delivered)\b/);
  }, 30_000);

  it('auth login: the masked prompt\'s key hint in Portuguese, not inquirer\'s "toggle visibility"', async () => {
    const run = terminal('auth login');
    const screen = await run.term.waitFor('ctrl+t');
    expect(screen).toContain('ctrl+t mostrar ou ocultar');
    expect(screen).not.toContain('toggle visibility');
    run.term.keys('C-c');
    await run.waitExit(10_000);
    expect(run.exitCode()).toBe('130');
  }, 30_000);

  it('the help: commander\'s usage words in Portuguese ([opções], [comando], <nome>)', async () => {
    const run = terminal('--help');
    await run.waitExit(10_000);
    const screen = run.term.pane(true);
    expect(screen).toContain('Uso: econsig [opções] [comando]');
    expect(screen).toContain('--profile <nome>');
    expect(screen).toContain('validate [opções] [arquivo...]');
    expect(screen).not.toMatch(/\[options\]|\[command\]|<name>|<file>/);
  }, 30_000);
});
