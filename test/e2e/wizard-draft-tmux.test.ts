/**
 * Issue 24, the wizard at 80x24 (tmux): Ctrl-C in the middle of a field keeps what was typed
 * in the draft; the command to continue is printed whole on one line; resuming the draft and
 * leaving again replaces it instead of adding another beside it. Keys typed ahead, several
 * fields and a Ctrl-C in one burst, reach their own fields in order.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot, tempHome } from './run-cli.js';
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

  it('keys typed ahead in one burst reach the next fields in order, an 80-character street, a search and Ctrl-C included', async () => {
    const { home, run } = await atTheStreet();
    // One send-keys: every field typed before its prompt is drawn; the state is a search
    // ("mg" then Enter); the CEP is half-typed when Ctrl-C (the key) comes.
    run.term.type(`${street}\r1000\rSala 5\rCentro\rBelo Horizonte\rmg\r3016001\x03`);
    await run.waitExit(10_000);
    const screen = run.term.pane(true);
    expect(run.exitCode(), screen).toBe('130');
    expect(screen).toContain('✔ Number (s/n when there is none): 1000');
    expect(screen).toContain('✔ State: MG  Minas Gerais');
    const drafts = join(home, 'drafts');
    const [name] = readdirSync(drafts);
    const draft = JSON.parse(readFileSync(join(drafts, name as string), 'utf8'));
    expect(draft.pessoa.endereco, screen).toEqual({ rua: street, numero: '1000', complemento: 'Sala 5', bairro: 'Centro', cidade: 'Belo Horizonte', uf: 'MG', cep: '3016001' });
  }, 30_000);

  it('keys typed ahead after a refused answer are dropped, and an Enter typed ahead is no choice at the summary\'s menu', async () => {
    const { home, run } = await atTheStreet();
    // The CEP one digit short is refused: the "1⏎" typed after it was meant for a next field.
    run.term.type(`${street}\r1000\rSala 5\rCentro\rBelo Horizonte\rmg\r3016001\r1\r`);
    await run.term.waitFor('cep must be 8 digits');
    // Corrected once the message is seen; the last Enter, typed ahead, must not choose Submit.
    run.term.type('1\r\r');
    await run.term.waitFor('? What now?');
    run.term.keys('C-c');
    await run.waitExit(10_000);
    const screen = run.term.pane(true);
    expect(run.exitCode(), screen).toBe('130');
    expect(screen).not.toContain('✔ What now?');
    const drafts = join(home, 'drafts');
    const [name] = readdirSync(drafts);
    expect(JSON.parse(readFileSync(join(drafts, name as string), 'utf8')).pessoa.endereco.cep, screen).toBe('30160011');
  }, 30_000);
});

const street = 'Avenida Presidente Juscelino Kubitschek de Oliveira, Quadra 12, Conjunto B, Lt 7';

/** The wizard on a file without its address: it asks the address alone, and waits at the street. */
async function atTheStreet() {
  expect(street).toHaveLength(80);
  const { home, cleanup } = tempHome();
  cleanups.push(cleanup);
  const submission = JSON.parse(readFileSync(join(repoRoot, 'fixtures', 'valid', 'pix-only.json'), 'utf8'));
  delete submission.pessoa.endereco;
  const partial = join(home, 'partial.json');
  writeFileSync(partial, JSON.stringify(submission));
  const run = wizard(home, `submit -i --file '${partial}'`);
  await run.term.waitFor('? Street');
  return { home, run };
}
