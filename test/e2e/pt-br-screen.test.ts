/**
 * Issue 14: with LANG=pt_BR.UTF-8, no English sentence reaches the screen. The built
 * binary, a real sandbox over HTTP, a temporary home: validate (a bad file and a good
 * one), submit (accepted, refused 422, no token, service down), watch, history, auth
 * status, config, demo, doctor and a mistyped option, each asserted on its exit code and
 * all of them on what they print (stdout and stderr, the help included).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RunResult, runCli } from './run-cli.js';
import { cliEnv, freePort, readFixture, startCountedSandbox, useScratch } from './submit-harness.js';

const scratch = useScratch();

/**
 * English words that would betray an untranslated sentence. Words Brazilian back offices
 * use as they are (token, webhook, sandbox, status, login) are not in it; neither are "no"
 * and "for", which are Portuguese too.
 */
const ENGLISH =
  /\b(the|and|is|are|was|with|of|to|from|this|that|submission|submissions|accepted|approved|rejected|refused|denied|waiting|hint|error|warning|note|sent|send|not|profile|result|results|contract|answered|file|files|found|valid|invalid|unknown|option|missing|listening|ready|stopped|received|settings|setting|checks|passed|failed|none|stored|expires|method|cannot|next|complete|row|rows|unset|default|source|known|nothing|service|unavailable|interrupted|retrying|attempt)\b/gi;

/**
 * What people read, less what is not ours to translate: paths and URLs, commands in
 * backticks, flags, field names of the service and of --json (camelCase, dotted), codes
 * (SVC_..., ECONNREFUSED, UFs), ids, the profile's name, the values a setting takes and a
 * setting's name (service-id), the keys of --json, and the service's own messages (its
 * `erros` lines).
 */
function ours(text: string): string {
  return text
    .replace(/^\s*SVC_\w+ .*$/gm, '')
    .replace(/"\w+":/g, '')
    .replace(/\bperfil\W+default\b/gi, '')
    .replace(/none, standard-webhooks, bearer, api-key, basic/g, '')
    .replace(/\bservice-id\b/g, '')
    .replace(/`[^`]*`/g, '')
    .replace(/\bhttps?:\/\/\S+/g, '')
    .replace(/\S*\/\S*/g, '')
    .replace(/--[\w-]+(?:[ =]<[^>]*>)?/g, '')
    .replace(/\[[\w.]*\]|<[\w.:-]*>|^ {2}file +/gm, '')
    .replace(/\b[a-z]+[A-Z]\w*\b/g, '')
    .replace(/\b[\w-]+(?:\.[\w-]+)+\b/g, '')
    .replace(/\b[A-Z][A-Z0-9_]+\b/g, '')
    .replace(/\(verified: null\)/g, '')
    .replace(/\b[0-9a-f]{8}-[0-9a-f-]{27}\b/g, '');
}

/** The English words of a run's output, with the run named, for a failure message. */
function englishIn(label: string, run: RunResult): string[] {
  const found = ours(`${run.stdout}\n${run.stderr}`).match(ENGLISH) ?? [];
  return found.map((word) => `${label}: ${word}`);
}

describe('pt-BR end to end: no English sentence on the screen', () => {
  it('validate, submit, watch, history, auth, config, demo, doctor and a usage error speak Portuguese', async () => {
    const { home, dir } = scratch;
    const listen = await freePort();
    const sbx = await startCountedSandbox({ delayMs: 200, webhookUrl: `http://127.0.0.1:${listen}/webhook` });
    const pt = { LANG: 'pt_BR.UTF-8' };
    const withToken = { ...cliEnv(home, sbx.sandbox.url, sbx.sandbox.token), ...pt };
    const noToken = { ...cliEnv(home, sbx.sandbox.url, undefined), ...pt };
    const wrongPix = readFixture('valid/pix-only.json') as { contaBancaria: { chavePix: string }; idProposta: string };
    wrongPix.contaBancaria.chavePix = 'outra.pessoa@example.com';
    const wrongPixFile = join(dir, 'chave-errada.json');
    writeFileSync(wrongPixFile, JSON.stringify(wrongPix));
    const broken = join(dir, 'quebrado.json');
    writeFileSync(broken, '{"idProposta": "PROP-1001",\n  "pessoa": {}\n');
    const down = `http://127.0.0.1:${await freePort()}`;

    const runs: Array<[string, RunResult, number]> = [
      ['validate bad', await runCli(['validate', 'fixtures/invalid/uf-unknown.json', 'fixtures/invalid/cep-too-short.json', broken, join(dir, 'none.json')], { env: noToken }), 1],
      ['validate good', await runCli(['validate', 'fixtures/valid'], { env: noToken }), 0],
      ['submit approved', await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--wait', '--listen', `127.0.0.1:${listen}`, '--timeout', '10'], { env: withToken }), 0],
      ['submit 422', await runCli(['submit', wrongPixFile], { env: withToken }), 5],
      ['submit no token', await runCli(['submit', 'fixtures/valid/pix-only.json'], { env: noToken }), 3],
      ['submit down', await runCli(['submit', 'fixtures/valid/bank-only.json'], { env: { ...withToken, ECONSIG_BASE_URL: down } }), 7],
      ['submit --json', await runCli(['submit', 'fixtures/valid/pix-only.json', '--json'], { env: noToken }), 3],
      ['watch', await runCli(['watch', '--port', '0', '--contract', 'C-404', '--timeout', '0.5'], { env: noToken }), 9],
      ['history', await runCli(['history'], { env: noToken }), 0],
      ['auth status', await runCli(['auth', 'status'], { env: withToken }), 0],
      ['auth status no token', await runCli(['auth', 'status'], { env: noToken }), 3],
      ['config list', await runCli(['config', 'list'], { env: noToken }), 0],
      ['config get unknown', await runCli(['config', 'get', 'webhook.prot'], { env: noToken }), 2],
      ['demo', await runCli(['demo', '--delay', '0.2'], { env: noToken, timeoutMs: 30_000 }), 0],
      ['doctor', await runCli(['doctor'], { env: withToken }), 0],
      ['unknown option', await runCli(['validate', '--bogus', 'x.json'], { env: noToken }), 2],
      ['missing argument', await runCli(['config', 'get'], { env: noToken }), 2],
      ['help', await runCli(['--help'], { env: noToken }), 0],
      ['submit help', await runCli(['submit', '--help'], { env: noToken }), 0],
      ['auth login help', await runCli(['help', 'auth', 'login'], { env: noToken }), 0],
    ];

    expect(runs.map(([label, run]) => [label, run.code]), runs.map(([label, run]) => `${label}:\n${run.stderr}`).join('\n')).toEqual(runs.map(([label, , code]) => [label, code]));
    // Each run said something in Portuguese (an empty screen has no English either).
    const screen = runs.map(([label, run]) => `── ${label}\n${run.stdout}${run.stderr}`).join('\n');
    expect(screen).toContain('inválido');
    expect(screen).toMatch(/aceita {2}202 aceita: contrato /);
    expect(screen).toMatch(/aprovada {2}contrato \S+ aprovado/);
    expect(screen).toMatch(/recusada {2}422 recusada pelo serviço/);
    expect(screen).toContain('Nenhum token no perfil "default"');
    expect(screen).toContain('serviço indisponível: nada foi enviado');
    expect(screen).toContain('Nenhum resultado para o contrato C-404');
    expect(screen).toContain('Configuração desconhecida: "webhook.prot". Você quis dizer "webhook.port"?');
    expect(screen).toContain('Demonstração concluída.');
    expect(screen).toContain('opção desconhecida');
    expect(screen).toContain('Opções globais:');
    expect(runs.flatMap(([label, run]) => englishIn(label, run)), screen).toEqual([]);
    // --json: English field names and stable codes, people's text in Portuguese.
    const json = JSON.parse(runs.find(([label]) => label === 'submit --json')?.[1].stdout ?? '') as { ok: boolean; error: { message: string; code: string; exitCode: number } };
    expect(json).toMatchObject({ ok: false, error: { message: 'Nenhum token no perfil "default".', code: 'auth.noToken', exitCode: 3 } });
  }, 90_000);
});
