/**
 * The wizard never loses the clerk's work (issue 14, point 2): after a 422 it says why and
 * offers to correct the field the service named; leaving keeps a draft; with no token it
 * says so before the first question. Built binary in tmux, 80x24.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type * as SandboxModule from '../../src/sandbox/server.js';
import { repoRoot, tempHome } from './run-cli.js';
import { readFixture } from './submit-harness.js';
import { runInTerminal, skipTerminal } from './tmux-harness.js';

const SIZE = { cols: 80, rows: 24 };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox() {
  const { startSandbox } = (await import(join(repoRoot, 'dist', 'sandbox', 'server.js'))) as typeof SandboxModule;
  const started = await startSandbox({ port: 0, delayMs: 60_000 });
  cleanups.push(() => started.close());
  return started;
}

/** PROP-1003 (Ana) with a Pix key linked to another worker: valid here, 422 SVC_B00001 there. */
function wrongPixFile(home: string): string {
  const doc = readFixture('valid/pix-only.json');
  doc.contaBancaria.chavePix = 'outra.pessoa@example.com';
  const path = join(home, 'wrong-pix.json');
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

function terminal(home: string, env: Record<string, string | undefined>, args: string) {
  const run = runInTerminal(home, env, args, SIZE);
  cleanups.push(run.cleanup);
  return run;
}

describe.skipIf(skipTerminal)('the wizard after a refused send (built binary, tmux 80x24)', () => {
  it('422: says why, offers to correct the Pix key the service named; corrected, it is accepted (exit 0)', async () => {
    const sbx = await sandbox();
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const run = terminal(home, { ECONSIG_TOKEN: sbx.token, ECONSIG_BASE_URL: sbx.url }, `submit -i --file '${wrongPixFile(home)}'`);
    await run.term.answer('What now?', ''); // Submit
    const refused = await run.term.waitFor('Correct Pix key and send again');
    expect(refused).toContain('The service refused the submission (422)');
    run.term.keys('Enter');
    const asked = await run.term.waitFor('? Pix key');
    expect(asked.replace(/\s+/g, ' ')).toContain('The service refused Pix key: a chave Pix não está vinculada ao CPF do trabalhador.');
    // Only the refused field is asked again: the clerk's value is offered, the rest is kept.
    expect(asked).toContain('(outra.pessoa@example.com)');
    run.term.type('ana.lima@example.com');
    run.term.keys('Enter');
    await run.term.answer('What now?', ''); // Submit again
    await run.waitExit(10_000);
    const screen = run.term.pane(true);
    expect(run.exitCode(), screen).toBe('0');
    expect(screen.replace(/\s+/g, ' ')).toMatch(/accepted 202 accepted/);
    expect(sbx.contracts().map((c) => c.idProposta)).toEqual(['PROP-1003']);
  }, 40_000);

  it('422, then Leave: a draft is kept (0600) and named; exit 5', async () => {
    const sbx = await sandbox();
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const run = terminal(home, { ECONSIG_TOKEN: sbx.token, ECONSIG_BASE_URL: sbx.url }, `submit -i --file '${wrongPixFile(home)}'`);
    await run.term.answer('What now?', '');
    await run.term.waitFor('Leave (a draft is kept)');
    run.term.keys('Up', 'Enter'); // the last choice
    await run.waitExit(10_000);
    const screen = run.term.pane(true);
    expect(run.exitCode(), screen).toBe('5');
    const [name] = readdirSync(join(home, 'drafts'));
    const path = join(home, 'drafts', name as string);
    expect(screen.replace(/\s+/g, ' ')).toContain(`Not sent. What was entered is saved in ${path}`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ idProposta: 'PROP-1003', contaBancaria: { chavePix: 'outra.pessoa@example.com' } });
  }, 40_000);

  it('no token: said before the first question, in the clerk\'s language (exit 3)', async () => {
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const run = terminal(home, { ECONSIG_TOKEN: undefined, ECONSIG_BASE_URL: 'http://127.0.0.1:9', LANG: 'pt_BR.UTF-8' }, 'submit');
    await run.waitExit(10_000);
    const screen = run.term.pane(true);
    expect(run.exitCode(), screen).toBe('3');
    expect(screen.replace(/\s+/g, ' ')).toContain('Não há token para o perfil "default"');
    expect(screen.replace(/\s+/g, ' ')).toContain('econsig auth login');
    expect(screen).not.toContain('Id da proposta');
  }, 20_000);

  it('pt-BR (LANG=pt_BR.UTF-8): a 422, corrected, accepted; no English sentence reaches the screen', async () => {
    const sbx = await sandbox();
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const run = terminal(home, { ECONSIG_TOKEN: sbx.token, ECONSIG_BASE_URL: sbx.url, LANG: 'pt_BR.UTF-8' }, `submit -i --file '${wrongPixFile(home)}'`);
    await run.term.answer('E agora?', ''); // Enviar
    await run.term.waitFor('Corrigir Chave Pix e enviar de novo');
    run.term.keys('Enter');
    await run.term.waitFor('? Chave Pix');
    run.term.type('ana.lima@example.com');
    run.term.keys('Enter');
    await run.term.answer('E agora?', '');
    await run.waitExit(10_000);
    const screen = run.term.pane(true);
    expect(run.exitCode(), screen).toBe('0');
    expect(screen.replace(/\s+/g, ' ')).toMatch(/aceita 202 aceita: contrato /);
    // After an accepted send, where to follow it: the command whole on its own line (issue 24).
    expect(screen).toMatch(/^ {2}econsig watch --contract [0-9a-f-]{36}$/m);
    // What people read, less what is not ours to translate: the service's own messages,
    // field names of the service (chavePix...), flags (the next step's --contract), paths
    // and contract ids.
    const ours = screen
      .replace(/\n/g, ' ')
      .replace(/--[\w-]+/g, '')
      .replace(/SVC_\w+ [^]*?trabalhador\./g, '')
      .replace(/\b[a-z]+[A-Z]\w*\b/g, '')
      .replace(/\S+@\S+|\/\S+|https?:\S+/g, '');
    const english = ours.match(/\b(the|and|is|was|with|submission|submissions|accepted|rejected|refused|waiting|hint|error|warning|sent|send|not|profile|result|contract|answered|what|now|correct|again|leave|save|file|found|yes|wizard)\b/gi);
    expect(english, screen).toBeNull();
  }, 40_000);

  it('pt-BR: the confirmation before sending elsewhere asks (s/N) and takes s/n', async () => {
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const file = join(repoRoot, 'fixtures', 'valid', 'pix-only.json');
    const run = terminal(home, { ECONSIG_TOKEN: 'tok_not_used_123456', ECONSIG_BASE_URL: 'https://homolog.invalid', LANG: 'pt_BR.UTF-8' }, `submit '${file}'`);
    const asked = await run.term.waitFor('? Enviar 1 submissão a https://homolog.invalid (perfil default)?');
    expect(asked).toContain('(s/N)');
    run.term.type('x');
    run.term.keys('Enter');
    await run.term.waitFor('Responda "Sim" ou "Não"');
    run.term.keys('BSpace');
    run.term.type('n');
    run.term.keys('Enter');
    await run.waitExit(10_000);
    expect(run.exitCode(), run.term.pane(true)).toBe('2');
  }, 30_000);

  it('the bank field searches by name: "itau" finds 341, named once', async () => {
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const doc = readFixture('valid/bank-only.json');
    delete doc.contaBancaria.compe;
    const path = join(home, 'no-bank.json');
    writeFileSync(path, JSON.stringify(doc));
    const run = terminal(home, { ECONSIG_TOKEN: 'sbx_unused_token', ECONSIG_BASE_URL: 'http://127.0.0.1:9' }, `submit -i --file '${path}'`);
    await run.term.waitFor('? Bank code');
    run.term.type('itau');
    await run.term.waitFor(/❯ 341 {2}ITA[UÚ] UNIBANCO/i);
    run.term.keys('Enter');
    const summary = await run.term.waitFor('? What now?');
    expect(summary).toMatch(/341 \(ITA[UÚ] UNIBANCO/i);
    expect(run.term.pane(true).match(/ITA[UÚ] UNIBANCO/gi)?.length).toBe(2); // the answered line and the summary
    run.term.keys('C-c');
    await run.waitExit(5_000);
  }, 30_000);
});
