/**
 * submit as people meet it in a terminal: the built binary in a real pseudo-terminal (tmux).
 * The wizard typed at key by key, the confirmation before sending elsewhere, and the progress
 * count of a --json batch. Needs `npm run build` and tmux (.ci/run installs it).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type * as SandboxModule from '../../src/sandbox/server.js';
import { repoRoot, runCli, tempHome } from './run-cli.js';
import { hasTmux, runInTerminal as runTerminal, skipTerminal } from './tmux-harness.js';
import { bankOnly, parseSubmitJson, writeJson } from './submit-harness.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function runInTerminal(home: string, service: { token: string; baseUrl: string }, args: string) {
  const run = runTerminal(home, { ECONSIG_TOKEN: service.token, ECONSIG_BASE_URL: service.baseUrl }, args);
  cleanups.push(run.cleanup);
  return run;
}

describe('econsig submit in a terminal: the wizard, the confirmation, the progress (built binary)', () => {
  it.skipIf(skipTerminal)('tmux is installed (CI must install it: .ci/run)', () => {
    expect(hasTmux, 'tmux -V failed: install tmux to run the terminal tests').toBe(true);
  });

  it.skipIf(skipTerminal)('types a whole Pix submission in tmux and sees the sandbox accept it (202)', async () => {
    const { startSandbox } = (await import(join(repoRoot, 'dist', 'sandbox', 'server.js'))) as typeof SandboxModule;
    const sandbox = await startSandbox({ port: 0, delayMs: 200 });
    cleanups.push(() => sandbox.close());
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);

    const { term, exitFile, waitExit } = runInTerminal(home, { token: sandbox.token, baseUrl: sandbox.url }, 'submit --yes');

    await term.answer('Proposal id', 'PROP-1001');
    await term.answer('City of birth', 'São Paulo');
    await term.answer('E-mail', 'maria.silva@example.com');
    await term.answer('Phone', '11912345678');
    await term.answer('Document type', ''); // RG, the first choice
    await term.answer('Document number', '12.345.678-9');
    await term.answer('Issuing body', 'SSP');
    await term.waitFor('? State of issue');
    term.type('sp');
    // The pointer on the option: the search has answered (the state's name alone is
    // already on the screen from an earlier answer, once the first state is chosen).
    await term.waitFor('❯ SP  São Paulo');
    term.keys('Enter');
    await term.answer('Issue date', '21/03/2015');
    await term.answer('Street', 'Avenida Paulista');
    await term.answer('Number', 's/n');
    await term.answer('Complement', 'Apto 12');
    await term.answer('Neighbourhood', 'Bela Vista');
    await term.answer('City:', 'São Paulo');
    await term.waitFor('? State:');
    term.type('sao paulo');
    await term.waitFor('❯ SP  São Paulo');
    term.keys('Enter');

    // A CEP one digit short: refused under the field, corrected in place.
    await term.answer('CEP', '0131010');
    await term.waitFor('cep must be 8 digits, e.g. "01310100"');
    term.type('0');
    term.keys('Enter');
    await term.waitFor('✔ CEP (8 digits, hyphen optional): 01310100');

    await term.waitFor('? Marital status');
    term.keys('Down', 'Enter'); // Married
    await term.answer('How will the worker be paid?', ''); // Pix key, the first choice
    await term.answer('Pix key', '529.982.247-25');

    const summary = await term.waitFor('? What now?');
    expect(summary).toMatch(/Document number\s+numero\s+\*{4}6789/);
    expect(summary).toMatch(/Pix key\s+chavePix\s+\*{3}\.982\.247-\*{2}/);
    expect(summary).toMatch(/Marital status\s+estadoCivil\s+CASADO \(Married\)/);
    term.keys('Enter'); // Submit

    await waitExit(15_000);
    const screen = term.pane(true);
    expect(existsSync(exitFile), `the command did not finish; the terminal shows:\n${screen}`).toBe(true);
    expect(readFileSync(exitFile, 'utf8').trim(), screen).toBe('0');
    expect(screen).toMatch(/accepted/i);
    expect(screen).toMatch(/\b202\b/);
    const contracts = sandbox.contracts();
    expect(contracts).toHaveLength(1);
    expect(contracts[0]).toMatchObject({ idProposta: 'PROP-1001', pixReplaced: false });
  }, 60_000);

  it.skipIf(skipTerminal)('a file to a service that is not this machine asks first; "n" sends nothing (exit 2)', async () => {
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const file = join(repoRoot, 'fixtures', 'valid', 'pix-only.json');
    // An address that cannot answer: if the confirmation were skipped, the send would fail, not hang.
    const { term, exitFile, waitExit } = runInTerminal(home, { token: 'tok_not_used_123456', baseUrl: 'https://homolog.invalid' }, `submit '${file}'`);
    const screen = await term.waitFor('? Send 1 submission to https://homolog.invalid (profile default)?');
    expect(screen).toContain('(y/N)');
    term.type('n');
    term.keys('Enter');
    await waitExit(10_000);
    expect(readFileSync(exitFile, 'utf8').trim(), term.pane(true)).toBe('2');
    expect(term.pane(true)).toContain('Nothing was sent.');
    expect(existsSync(join(home, 'econsig.db'))).toBe(false);
  }, 30_000);

  it.skipIf(skipTerminal)('submit --json on a terminal: a running count on stderr, and stdout the document alone', async () => {
    // 60 ms per answer, one at a time: the batch lasts about 1.2 s, long enough to be seen.
    const { startSandbox } = (await import(join(repoRoot, 'dist', 'sandbox', 'server.js'))) as typeof SandboxModule;
    const sandbox = await startSandbox({ port: 0, delayMs: 60_000, latencyMs: 60 });
    cleanups.push(() => sandbox.close());
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const folder = join(home, 'batch');
    mkdirSync(folder);
    for (let i = 0; i < 20; i++) writeJson(folder, `PROP-${2001 + i}.json`, bankOnly(`PROP-${2001 + i}`));
    const output = join(home, 'out.json');
    const { term, exitFile, waitExit } = runInTerminal(home, { token: sandbox.token, baseUrl: sandbox.url }, `submit '${folder}' --concurrency 1 --json > '${output}'`);
    const screen = await term.waitFor('/20 answered');
    expect(screen).toMatch(/\b\d+\/20 answered/);
    await waitExit(15_000);
    expect(readFileSync(exitFile, 'utf8').trim(), term.pane(true)).toBe('0');
    // The spinner is gone at the end, and never reached stdout.
    expect(term.pane()).not.toContain('answered');
    const doc = parseSubmitJson(readFileSync(output, 'utf8'));
    expect(doc.results.map((r) => r.outcome)).toEqual(Array(20).fill('accepted'));
  }, 30_000);

  it.skipIf(skipTerminal)('starts from a row of a sheet (-i --file planilha.xlsx --row 5): every field loaded, Submit sends it', async () => {
    const { startSandbox } = (await import(join(repoRoot, 'dist', 'sandbox', 'server.js'))) as typeof SandboxModule;
    const sandbox = await startSandbox({ port: 0, delayMs: 60_000 });
    cleanups.push(() => sandbox.close());
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const sheet = join(repoRoot, 'fixtures', 'sheets', 'numeric-cells.xlsx');
    const { term, exitFile, waitExit } = runInTerminal(home, { token: sandbox.token, baseUrl: sandbox.url }, `submit -i --file '${sheet}' --row 5`);
    await term.waitFor('Loaded from the file');
    await term.waitFor('? What now?');
    expect(term.pane(true)).toContain('PROP-1003');
    term.keys('Enter'); // Submit, the first choice
    await waitExit(15_000);
    expect(readFileSync(exitFile, 'utf8').trim(), term.pane(true)).toBe('0');
    expect(sandbox.contracts().map((c) => c.idProposta)).toEqual(['PROP-1003']);
  }, 30_000);

  it('without a terminal the wizard never starts: exit 2, and the message says to pass --file', async () => {
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const result = await runCli(['submit'], { env: { ECONSIG_HOME: home, ECONSIG_TOKEN: 'sbx_unused' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--file');
    expect(result.stdout).toBe('');
  });
});
