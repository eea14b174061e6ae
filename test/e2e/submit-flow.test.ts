/**
 * How a batch flows (issue 14): --wait overlaps waiting with sending, and a 401 stops the
 * batch. Built binary against the sandbox over real HTTP.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { type CountedSandbox, bankOnly, cliEnv, freePort, parseSubmitJson, startCountedSandbox, startStub, useScratch, writeJson } from './submit-harness.js';

let home: string;
let dir: string;
let sbx: CountedSandbox | undefined;
const scratch = useScratch();
beforeEach(() => {
  ({ home, dir } = scratch);
  sbx = undefined;
});

function batch(count: number): string {
  const folder = join(dir, 'batch');
  mkdirSync(folder);
  for (let i = 0; i < count; i++) writeJson(folder, `PROP-${2001 + i}.json`, bankOnly(`PROP-${2001 + i}`));
  return folder;
}

describe('submit --wait: waiting does not hold a concurrency slot', () => {
  it('40 files, results 2 s after each 202, --concurrency 4: every 202 comes before the first result', async () => {
    const port = await freePort();
    sbx = await startCountedSandbox({ delayMs: 2_000, webhookUrl: `http://127.0.0.1:${port}/webhook` });
    const folder = batch(40);
    const run = await runCli(['submit', folder, '--concurrency', '4', '--wait', '--listen', `127.0.0.1:${port}`, '--timeout', '30'], {
      env: cliEnv(home, sbx.sandbox.url, sbx.sandbox.token),
      timeoutMs: 40_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split('\n');
    const accepted = lines.map((line, i) => (/ accepted {2}202 accepted/.test(line) ? i : -1)).filter((i) => i >= 0);
    const approved = lines.map((line, i) => (/ approved {2}contract /.test(line) ? i : -1)).filter((i) => i >= 0);
    expect(accepted).toHaveLength(40);
    expect(approved).toHaveLength(40);
    // Held slots would allow only 4 sends before the first result: all 40 went first.
    expect(Math.max(...accepted)).toBeLessThan(Math.min(...approved));
    expect(sbx.requests()).toBe(40);
    expect(run.stderr).toMatch(/40 submissions: 40 approved/);
  }, 60_000);
});

describe('submit: a 401 stops the batch', () => {
  it('ECONSIG_TOKEN wrong, 30 files at --concurrency 4: at most 4 requests, the rest not sent, the hint names ECONSIG_TOKEN once per 401', async () => {
    sbx = await startCountedSandbox({ latencyMs: 50 });
    const folder = batch(30);
    const env = cliEnv(home, sbx.sandbox.url, 'sbx_wrong_token_0123456789abcdef');
    const json = await runCli(['submit', folder, '--concurrency', '4', '--json'], { env });
    expect(json.code, json.stderr).toBe(3);
    expect(sbx.requests()).toBeLessThanOrEqual(4);
    const results = parseSubmitJson(json.stdout).results;
    expect(results).toHaveLength(30);
    const refused = results.filter((r) => r.outcome === 'unauthorized');
    const notSent = results.filter((r) => r.outcome === 'skipped');
    expect(refused.length).toBe(sbx.requests());
    expect(refused.length + notSent.length).toBe(30);
    for (const r of notSent) expect((r as { message?: string }).message).toMatch(/^not sent: the service refused the token \(401\)/);
    for (const r of refused) expect((r as { hint?: string }).hint).toMatch(/The token came from ECONSIG_TOKEN/);

    const before = sbx.requests();
    const human = await runCli(['submit', folder, '--concurrency', '4'], { env });
    expect(human.code, human.stderr).toBe(3);
    expect(sbx.requests() - before).toBeLessThanOrEqual(4);
    const hints = human.stderr.split('\n').filter((line) => line.includes('The token came from ECONSIG_TOKEN'));
    expect(hints.length).toBeGreaterThan(0);
    expect(hints.length).toBeLessThanOrEqual(4);
    expect(human.stderr).not.toContain('econsig auth login');
  });

  it('a stored token refused: the hint names the profile and says to log in again', async () => {
    sbx = await startCountedSandbox();
    const login = await runCli(['auth', 'login', '--with-token'], { env: { ECONSIG_HOME: home }, input: 'sbx_stored_but_wrong_0123456789\n' });
    expect(login.code, login.stderr).toBe(0);
    const run = await runCli(['submit', batch(3), '--concurrency', '1'], { env: cliEnv(home, sbx.sandbox.url, undefined) });
    expect(run.code, run.stderr).toBe(3);
    expect(sbx.requests()).toBe(1);
    expect(run.stderr).toMatch(/The token is the one stored for profile default \(.*config\.json\): log in again with `econsig auth login`/);
    expect(run.stderr).not.toContain('ECONSIG_TOKEN');
  });
});

describe('submit: a service that cannot be reached stops the batch', () => {
  it('30 files to a closed port at --concurrency 4: the files in flight are unavailable (exit 7), the rest not sent, each hint said once', async () => {
    const folder = batch(30);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const json = await runCli(['submit', folder, '--concurrency', '4', '--json'], { env: cliEnv(home, closed, 'sbx_any_token_0123456789abcdef') });
    expect(json.code, json.stderr).toBe(7);
    const results = parseSubmitJson(json.stdout).results;
    expect(results).toHaveLength(30);
    const unavailable = results.filter((r) => r.outcome === 'unavailable');
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable.length).toBeLessThanOrEqual(4 + 4); // what was in flight, and claimed with it
    const notSent = results.filter((r) => r.outcome === 'skipped');
    expect(unavailable.length + notSent.length).toBe(30);
    for (const r of notSent) expect((r as { message?: string }).message).toMatch(/^not sent: the service could not be reached for /);

    const human = await runCli(['submit', folder, '--concurrency', '4'], { env: cliEnv(home, closed, 'sbx_any_token_0123456789abcdef') });
    expect(human.code).toBe(7);
    const hints = human.stderr.split('\n').filter((line) => line.includes('hint:'));
    expect(new Set(hints).size).toBe(hints.length);
    // Every file still has its line.
    for (let i = 0; i < 30; i++) expect(human.stderr).toContain(`PROP-${2001 + i}.json`);
  });
});

describe('submit: every file gets its own line', () => {
  it('valid, invalid, an identical copy and a changed copy: one line each with outcome and reason; target and summary count them', async () => {
    sbx = await startCountedSandbox();
    const folder = join(dir, 'mixed');
    mkdirSync(folder);
    writeJson(folder, 'a.json', bankOnly('PROP-2001'));
    writeJson(folder, 'b.json', bankOnly('PROP-2002'));
    writeJson(folder, 'c.json', bankOnly('PROP-2003'));
    writeJson(folder, 'd-invalid.json', { ...bankOnly('PROP-2004'), pessoa: { naturalidade: 'X' } });
    writeJson(folder, 'e-copy-of-a.json', bankOnly('PROP-2001'));
    writeJson(folder, 'f-changed-b.json', { ...bankOnly('PROP-2002'), contaBancaria: { ...bankOnly('PROP-2002').contaBancaria, agencia: '0999' } });
    const run = await runCli(['submit', folder], { env: cliEnv(home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(1); // the first failing file in input order is d-invalid (1)
    expect(sbx.requests()).toBe(3);
    const lines = run.stderr.split('\n');
    const lineOf = (name: string) => lines.filter((line) => line.includes(`${name}  `));
    expect(lineOf('a.json')[0]).toMatch(/accepted {2}202 accepted/);
    expect(lineOf('d-invalid.json')[0]).toMatch(/invalid {2}not sent/);
    expect(lineOf('e-copy-of-a.json')[0]).toMatch(/accepted {2}the same submission as .*a\.json, sent once/);
    expect(lineOf('f-changed-b.json')[0]).toMatch(/skipped {2}not sent: proposal PROP-2002 is also in .*b\.json/);
    expect(run.stderr).toMatch(/→ 3 submissions to send to http:\/\/127\.0\.0\.1:\d+ \(profile default\); not sent: 1 invalid, 2 duplicates/);
    expect(run.stderr).toMatch(/6 submissions: 4 accepted, 1 invalid, 1 skipped/);
  });

  it('a 401 batch names every file, the ones never sent included', async () => {
    sbx = await startCountedSandbox();
    const folder = batch(12);
    const run = await runCli(['submit', folder, '--concurrency', '2'], { env: cliEnv(home, sbx.sandbox.url, 'sbx_wrong_token_0123456789abcdef') });
    expect(run.code, run.stderr).toBe(3);
    for (let i = 0; i < 12; i++) expect(run.stderr).toMatch(new RegExp(`PROP-${2001 + i}\\.json {2}(unauthorized|skipped) `));
  });
});

describe('submit: a 422 with 5,000 erros', () => {
  it('names three in the message and ten on the screen; --json keeps all 5,000', async () => {
    const erros = Array.from({ length: 5000 }, (_, i) => ({ codigo: `SVC_V${String(i).padStart(5, '0')}`, msg: `campo ${i}: inválido `.repeat(5) }));
    const stub = await startStub((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ erros }));
    });
    const env = cliEnv(home, stub.url, 'sbx_token_0123456789abcdef');
    const human = await runCli(['submit', 'fixtures/valid/bank-only.json'], { env });
    expect(human.code, human.stderr.slice(0, 2000)).toBe(5);
    expect(human.stderr.length).toBeLessThan(10_000);
    expect(Math.max(...human.stderr.split('\n').map((line) => line.length))).toBeLessThan(1_000);
    expect(human.stderr).toContain('and 4997 more');
    expect(human.stderr).toContain('… and 4990 more (--json lists them all)');
    const json = await runCli(['submit', 'fixtures/valid/bank-only.json', '--json'], { env: cliEnv(home, stub.url, 'sbx_token_0123456789abcdef') });
    expect(parseSubmitJson(json.stdout).results[0]?.erros).toHaveLength(5000);
  });
});

describe('help', () => {
  it.each([['help'], ['help', 'submit'], ['submit', '--help'], ['config', 'get', '--help']])('econsig %s exits 0; a command\'s help lists the global options', async (...args) => {
    const run = await runCli(args);
    expect(run.code, run.stderr).toBe(0);
    if (args.length > 1) expect(run.stdout).toMatch(/Global Options:[^]*--profile <name>/);
  });

  it('econsig help <no such command> is a usage error: exit 2, the help on stderr', async () => {
    const run = await runCli(['help', 'nosuch']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage: econsig');
  });
});

describe('CI logs and stored tokens', () => {
  it('--json: an invalid file is named on stderr with the fields to fix', async () => {
    const bad = bankOnly('PROP-2001');
    bad.pessoa.endereco.cep = '0131010';
    const file = writeJson(dir, 'bad-cep.json', bad);
    const run = await runCli(['submit', file, '--json'], { env: cliEnv(home, 'http://127.0.0.1:9', 'x') });
    expect(run.code).toBe(1);
    expect(parseSubmitJson(run.stdout).results[0]!.outcome).toBe('invalid');
    expect(run.stderr).toMatch(/✗ .*bad-cep\.json {2}invalid .*\n {4}pessoa\.endereco\.cep: must be 8 digits/);
  });

  it('--json: stdout is the document alone, and stderr names each file that failed, with why, and the counts', async () => {
    sbx = await startCountedSandbox();
    const folder = join(dir, 'ci');
    mkdirSync(folder);
    writeJson(folder, 'a.json', bankOnly('PROP-2001'));
    writeJson(folder, 'b-unknown.json', bankOnly('PROP-9999'));
    const run = await runCli(['submit', folder, '--json'], { env: cliEnv(home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(4);
    expect(parseSubmitJson(run.stdout).results).toHaveLength(2);
    expect(run.stderr).toMatch(/✗ .*b-unknown\.json {2}not_found {2}404 proposal PROP-9999 not found/);
    expect(run.stderr).not.toMatch(/✗ .*a\.json/);
    expect(run.stderr).toContain('2 submissions: 1 accepted, 1 not_found');
  });

  it.each([['tokén-with-accent'], ['tok\x07bell']])('auth login refuses %j (not ASCII-printable) and stores nothing', async (token) => {
    const login = await runCli(['auth', 'login', '--with-token'], { env: { ECONSIG_HOME: home }, input: `${token}\n` });
    expect(login.code, login.stderr).toBe(2);
    expect(login.stderr).toContain('cannot go in an HTTP header');
    const status = await runCli(['auth', 'status', '--json'], { env: { ECONSIG_HOME: home } });
    expect(status.stdout).not.toContain('"present":true');
  });
});

describe('validate --quiet', () => {
  it('lists only the files with something to say, then the summary', async () => {
    const folder = join(dir, 'v');
    mkdirSync(folder);
    for (let i = 0; i < 3; i++) writeJson(folder, `ok-${i}.json`, bankOnly(`PROP-${2001 + i}`));
    writeJson(folder, 'bad.json', { ...bankOnly('PROP-2009'), pessoa: { naturalidade: 'X' } });
    const loud = await runCli(['validate', folder]);
    expect(loud.stderr).toContain('ok-0.json');
    const quiet = await runCli(['validate', folder, '--quiet']);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).not.toContain('ok-0.json');
    expect(quiet.stderr).toContain('bad.json');
    expect(quiet.stderr).toMatch(/4 files/);
  });
});

describe('submit in Portuguese (LANG=pt_BR.UTF-8), with --wait', () => {
  it('the target, each line, the results and the summary are in Portuguese; --json keeps codes and field names', async () => {
    const port = await freePort();
    sbx = await startCountedSandbox({ delayMs: 200, webhookUrl: `http://127.0.0.1:${port}/webhook` });
    const folder = batch(3);
    writeJson(folder, 'copy.json', bankOnly('PROP-2001'));
    const env = { ...cliEnv(home, sbx.sandbox.url, sbx.sandbox.token), LANG: 'pt_BR.UTF-8' };
    const run = await runCli(['submit', folder, '--wait', '--listen', `127.0.0.1:${port}`, '--timeout', '10'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/→ 3 submissões para enviar a .* \(perfil default\); não enviadas: 1 repetida/);
    expect(run.stderr).toContain(`→ resultados: escutando em http://127.0.0.1:${port}/webhook`);
    expect(run.stderr).toMatch(/aceita {2}202 aceita: contrato /);
    expect(run.stderr).toMatch(/aprovada {2}contrato \S+ aprovado/);
    expect(run.stderr).toContain('4 submissões: 4 aprovadas');
    const english = run.stderr.replace(/\S*\/\S*/g, '').match(/\b(the|submission|submissions|accepted|approved|waiting|listening|results|profile|contract|sent)\b/gi);
    expect(english, run.stderr).toBeNull();
    const json = await runCli(['submit', folder, '--json'], { env });
    const results = parseSubmitJson(json.stdout).results as Array<{ outcome: string; message?: string }>;
    expect(results.map((r) => r.outcome)).toEqual(['approved', 'approved', 'approved', 'approved']);
    // People's text follows the language; the store's record (history) stays English.
    expect(results[0]!.message).toMatch(/^já aprovada: contrato /);
    const history = JSON.parse((await runCli(['history', '--json'], { env })).stdout) as { entries: Array<{ message?: string }> };
    expect(history.entries.some((e) => /^202 accepted: contract /.test(e.message ?? ''))).toBe(true);
  });

  it('a wrong ECONSIG_TOKEN, a proposal held with other data, a service down: each line and hint in Portuguese', async () => {
    sbx = await startCountedSandbox({});
    const folder = batch(2);
    const pt = (token: string | undefined, baseUrl = sbx!.sandbox.url) => ({ ...cliEnv(home, baseUrl, token), LANG: 'pt_BR.UTF-8' });
    const english = (text: string) => text.replace(/`[^`]*`/g, '').replace(/\S*[/.]\S*/g, '').match(/\b(the|not|sent|came|from|set|valid|one|stored|profile|proposal|already|has|with|different|data|check|nothing|was|service|network|again)\b/gi);

    const bad = await runCli(['submit', folder], { env: pt('bad') });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('O token veio de ECONSIG_TOKEN');
    expect(english(bad.stderr), bad.stderr).toBeNull();

    const sent = await runCli(['submit', join(folder, 'PROP-2001.json')], { env: pt(sbx.sandbox.token) });
    expect(sent.code, sent.stderr).toBe(0);
    writeJson(folder, 'PROP-2001.json', { ...bankOnly('PROP-2001'), pessoa: { ...bankOnly('PROP-2001').pessoa, email: 'outra@example.com' } });
    const held = await runCli(['submit', join(folder, 'PROP-2001.json')], { env: pt(sbx.sandbox.token) });
    expect(held.code).toBe(5);
    expect(held.stderr).toMatch(/não enviada: a proposta PROP-2001 já tem o contrato \S+ \(aceito e ainda sem resultado/);
    expect(held.stderr).toContain('Um contrato por proposta.');
    expect(english(held.stderr), held.stderr).toBeNull();

    const down = await runCli(['submit', join(folder, 'PROP-2002.json')], { env: pt(sbx.sandbox.token, `http://127.0.0.1:${await freePort()}`) });
    expect(down.code).toBe(7);
    expect(down.stderr).toContain('Nada foi enviado. Confira a URL base e a rede');
  });
});
