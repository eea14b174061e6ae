/**
 * Issue 24, the wizard at 80x24 (tmux): Ctrl-C in the middle of a field keeps what was typed
 * in the draft; the command to continue is printed whole on one line; resuming the draft and
 * leaving again replaces it instead of adding another beside it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from './run-cli.js';
import { runInTerminal, skipTerminal } from './tmux-harness.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function wizard(home: string, args: string) {
  const run = runInTerminal(home, { ECONSIG_TOKEN: 'token', ECONSIG_BASE_URL: 'http://127.0.0.1:9' }, args, { cols: 80, rows: 24 });
  cleanups.push(run.cleanup);
  return run;
}

describe.skipIf(skipTerminal)('the wizard\'s draft at 80x24 (tmux)', () => {
  it('Ctrl-C mid-field keeps the half-typed field; the resume command is one whole line; resuming replaces the draft', async () => {
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const first = wizard(home, 'submit');
    await first.term.answer('Proposal id', 'PROP-1001');
    await first.term.waitFor('? City of birth');
    first.term.type('Ribeirão Pre');
    await first.term.waitFor('Ribeirão Pre');
    process.kill(first.term.pid(), 'SIGINT');
    await first.waitExit(10_000);
    expect(first.exitCode()).toBe('130');
    const drafts = join(home, 'drafts');
    const [name] = readdirSync(drafts);
    const path = join(drafts, name as string);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ idProposta: 'PROP-1001', pessoa: { naturalidade: 'Ribeirão Pre' } });
    // One line of its own, not broken by econsig: a line longer than the terminal is only
    // folded by the terminal itself at column 80 (a copy takes it whole).
    const screen = first.term.pane(true);
    const unfolded = screen.split('\n').map((line) => line.trimEnd()).join('\n').replace(/^(.{80})\n/gm, '$1');
    expect(unfolded.split('\n'), screen).toContain(`  econsig submit -i --file ${path}`);

    const second = wizard(home, `submit -i --file '${path}'`);
    await second.term.waitFor('? E-mail');
    process.kill(second.term.pid(), 'SIGINT');
    await second.waitExit(10_000);
    expect(readdirSync(drafts)).toEqual([name]);
  }, 40_000);
});
