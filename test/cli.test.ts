import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { type CommandInputs, type CommandName, buildProgram } from '../src/cli.js';
import type { Lang } from '../src/i18n/index.js';
import { main } from '../src/main.js';
import { MAX_TIMES } from '../src/sandbox/trigger-fields.js';

/** Parse argv with the real program and capture what the command would receive. */
async function parse(argv: string[]): Promise<{ name: CommandName; input: unknown; globals: unknown }> {
  let seen: { name: CommandName; input: unknown; globals: unknown } | undefined;
  const program = buildProgram(
    async (name, input, globals) => {
      seen = { name, input, globals };
      return 0;
    },
    { writeOut: () => undefined, writeErr: () => undefined },
    'en',
  );
  await program.parseAsync(['node', 'econsig', ...argv]);
  if (!seen) throw new Error('no command ran');
  return seen;
}

async function parseError(argv: string[]): Promise<{ code: string; exitCode: number }> {
  try {
    await parse(argv);
  } catch (error) {
    return error as { code: string; exitCode: number };
  }
  throw new Error(`expected ${argv.join(' ')} to fail`);
}

const submitDefaults: CommandInputs['submit'] = {
  files: [],
  wait: false,
  timeout: undefined,
  listen: undefined,
  dryRun: false,
  interactive: false,
  save: undefined,
  yes: false,
  concurrency: undefined,
  requestTimeout: undefined,
  force: false,
  strict: false,
  report: undefined,
};

describe('argv to typed input', () => {
  it.each<[string[], CommandName, unknown]>([
    [['validate', 'a.json', 'dir'], 'validate', { files: ['a.json', 'dir'], strict: false }],
    [['validate', '-', '--strict'], 'validate', { files: ['-'], strict: true }],
    [['validate', 'dir', '-q'], 'validate', { files: ['dir'], strict: false, quiet: true }],
    [['submit', 'p.json', '-f', 'q.json', '--file', 'r.json'], 'submit', { ...submitDefaults, files: ['p.json', 'q.json', 'r.json'] }],
    [
      ['submit', '--file', 'p.json', '--wait', '--timeout', '30', '--listen', '127.0.0.1:5000', '--concurrency', '8'],
      'submit',
      { ...submitDefaults, files: ['p.json'], wait: true, timeout: 30, listen: { host: '127.0.0.1', port: 5000 }, concurrency: 8 },
    ],
    [['submit', '--listen', '4021', '--dry-run', '-y', '--force'], 'submit', { ...submitDefaults, listen: { host: '127.0.0.1', port: 4021 }, dryRun: true, yes: true, force: true }],
    [['submit', '-i', '--save', 'out.json', '--lang', 'pt-BR'], 'submit', { ...submitDefaults, interactive: true, save: 'out.json' }],
    [['submit', 'p.json', '--request-timeout', '2.5', '--report', 'junit.xml', '--strict'], 'submit', { ...submitDefaults, files: ['p.json'], requestTimeout: 2.5, report: 'junit.xml', strict: true }],
    [['watch'], 'watch', { port: undefined, host: undefined, path: undefined, secret: undefined, forwardTo: undefined, contract: undefined, timeout: undefined }],
    [
      ['watch', '--port', '0', '--host', '0.0.0.0', '--path', '/hooks', '--forward-to', 'http://127.0.0.1:3000/x', '--contract', 'abc', '--timeout', '5'],
      'watch',
      { port: 0, host: '0.0.0.0', path: '/hooks', secret: undefined, forwardTo: 'http://127.0.0.1:3000/x', contract: 'abc', timeout: 5 },
    ],
    [
      ['sandbox'],
      'sandbox',
      { port: 4010, host: '127.0.0.1', webhookUrl: 'http://127.0.0.1:4020/webhook', delay: 3, failRate: 0, latency: 0, oauth: false },
    ],
    [
      ['sandbox', '--port', '0', '--delay', '0.5', '--rate-limit', '5', '--fail-rate', '0.25', '--latency', '100', '--token', 't', '--proposals', 'c.json'],
      'sandbox',
      { port: 0, host: '127.0.0.1', webhookUrl: 'http://127.0.0.1:4020/webhook', delay: 0.5, rateLimit: 5, failRate: 0.25, latency: 100, token: 't', proposals: 'c.json', oauth: false },
    ],
    [
      ['sandbox', '--oauth', '--token-ttl', '2.5', '--tls-cert', 's.pem', '--tls-key', 's.key', '--client-ca', 'ca.pem'],
      'sandbox',
      { port: 4010, host: '127.0.0.1', webhookUrl: 'http://127.0.0.1:4020/webhook', delay: 3, failRate: 0, latency: 0, oauth: true, tokenTtl: 2.5, tlsCert: 's.pem', tlsKey: 's.key', clientCa: 'ca.pem' },
    ],
    [['demo'], 'demo', { delay: 1 }],
    [['auth', 'login', '--with-token'], 'auth', { action: 'login', withToken: true }],
    [
      ['auth', 'login', '--client-credentials', '--token-url', 'https://a.example/t', '--client-id', 'id', '--scope', 's', '--client-auth', 'post', '--with-secret'],
      'auth',
      { action: 'login', withToken: false, clientCredentials: { tokenUrl: 'https://a.example/t', clientId: 'id', scope: 's', clientAuth: 'post', withSecret: true } },
    ],
    [['auth', 'status'], 'auth', { action: 'status' }],
    [['doctor'], 'doctor', {}],
    [['auth', 'logout'], 'auth', { action: 'logout' }],
    [['auth', 'token'], 'auth', { action: 'token' }],
    [['config', 'set', 'base-url', 'https://h.example'], 'config', { action: 'set', key: 'base-url', value: 'https://h.example' }],
    [['config', 'get', 'request-timeout'], 'config', { action: 'get', key: 'request-timeout' }],
    [['config', 'unset', 'webhook.port'], 'config', { action: 'unset', key: 'webhook.port' }],
    [['config', 'list'], 'config', { action: 'list' }],
    [['config', 'path'], 'config', { action: 'path' }],
    [['history', '--limit', '5', '--proposal', 'PROP-1'], 'history', { limit: 5, proposal: 'PROP-1', contract: undefined }],
    [['events'], 'events', { action: 'list', limit: 20, contract: undefined, proposal: undefined, outcome: undefined, since: undefined }],
    [['events', '--limit', '5', '--outcome', 'denied', '--since', '1d'], 'events', { action: 'list', limit: 5, contract: undefined, proposal: undefined, outcome: 'denied', since: '1d' }],
    [['events', 'show', '42'], 'events', { action: 'show', id: '42' }],
    [
      ['events', 'resend', '--contract', 'C-1', '--to', 'http://127.0.0.1:3000/h', '--secret', 'whsec_x', '-y'],
      'events',
      { action: 'resend', ids: [], to: 'http://127.0.0.1:3000/h', contract: 'C-1', outcome: undefined, since: undefined, secret: 'whsec_x', yes: true },
    ],
    [['events', 'resend', '1', '2', '--to', 'https://h.example/h'], 'events', { action: 'resend', ids: ['1', '2'], to: 'https://h.example/h', contract: undefined, outcome: undefined, since: undefined, secret: undefined, yes: false }],
    [
      ['sandbox', 'trigger', 'denied', '--contract', 'C-1', '--set', 'motivo=Margem=baixa', '--set-json', 'contaBancaria=null', '--set', 'a.b=1', '--times', '3'],
      'trigger',
      { outcome: 'denied', contract: 'C-1', proposal: undefined, reason: undefined, set: [{ path: 'motivo', value: 'Margem=baixa' }, { path: 'a.b', value: '1' }, { path: 'contaBancaria', value: null }], times: 3, sandbox: undefined },
    ],
    [['sandbox', 'trigger', 'approved', '--proposal', 'P', '--sandbox', 'http://127.0.0.1:4010'], 'trigger', { outcome: 'approved', contract: undefined, proposal: 'P', reason: undefined, set: [], times: 1, sandbox: 'http://127.0.0.1:4010' }],
    [['schema'], 'schema', {}],
    [['settle', 'PROP-1', '--contract', 'C-1'], 'settle', { idProposta: 'PROP-1', contract: 'C-1', notSent: false }],
    [['settle', 'PROP-1', '--not-sent'], 'settle', { idProposta: 'PROP-1', contract: undefined, notSent: true }],
    [['validate', 'p.xlsx', '--sheet', 'Propostas', '--lang', 'pt-BR'], 'validate', { files: ['p.xlsx'], strict: false, sheet: 'Propostas' }],
    [['--lang', 'pt-BR', 'validate', 'p.json'], 'validate', { files: ['p.json'], strict: false }],
    [['validate', '-', '--format', 'csv'], 'validate', { files: ['-'], strict: false, format: 'csv' }],
    [['submit', 'p.csv', '--results', 'r.xlsx', '--row', '7'], 'submit', { ...submitDefaults, files: ['p.csv'], results: 'r.xlsx', row: 7 }],
    [['submit', '-', '--format', 'xlsx', '--sheet', 'Lote'], 'submit', { ...submitDefaults, files: ['-'], format: 'xlsx', sheet: 'Lote' }],
    [['template'], 'template', { format: 'xlsx', output: undefined, force: false }],
    [['store', 'prune', '--before', '30d'], 'store', { action: 'prune', before: '30d' }],
    [['store', 'prune'], 'store', { action: 'prune', before: undefined }],
    [['store', 'forget', '--cpf', '529.982.247-25', '--dry-run'], 'store', { action: 'forget', cpf: '529.982.247-25', proposal: undefined, dryRun: true }],
    [['store', 'forget', '--proposal', 'PROP-1001'], 'store', { action: 'forget', cpf: undefined, proposal: 'PROP-1001', dryRun: false }],
    [['template', '--format', 'csv', '--lang', 'en', '-o', '-', '--force'], 'template', { format: 'csv', output: '-', force: true }],
  ])('%j → %s', async (argv, name, input) => {
    const seen = await parse(argv);
    expect(seen.name).toBe(name);
    expect(seen.input).toEqual(input);
  });

  it('global options reach every command, before or after it', async () => {
    const seen = await parse(['--profile', 'homolog', 'validate', 'a.json', '--json', '--no-color', '--verbose', '--base-url', 'https://h.example']);
    expect(seen.globals).toEqual({ profile: 'homolog', baseUrl: 'https://h.example', json: true, color: false, verbose: true, reveal: false });
    expect((await parse(['watch', '--reveal'])).globals).toMatchObject({ reveal: true });
    expect((await parse(['--reveal', 'history'])).globals).toMatchObject({ reveal: true });
  });
});

describe('bad flag values are usage errors (exit 2 at the boundary)', () => {
  it.each([
    [['watch', '--port', '70000']],
    [['watch', '--port', 'abc']],
    [['submit', '--timeout', '-1']],
    [['submit', '--timeout', '0']],
    [['submit', '--listen', 'host:port']],
    [['submit', '--listen', '127.0.0.1:0']],
    [['submit', '--timeout', '99999999']],
    [['watch', '--host', '']],
    [['sandbox', '--latency', 'x']],
    [['submit', '--concurrency', '0']],
    [['sandbox', '--fail-rate', '2']],
    [['watch', '--forward-to', 'ftp://x']],
    [['--base-url', 'not a url', 'validate', 'x']],
    [['--base-url', 'http://127.0.0.1:4111/?x=1', 'validate', 'x']],
    [['--base-url', 'https://h.example#f', 'validate', 'x']],
    [['validate', '--nope']],
    [['validate', '-', '--format', 'ods']],
    [['submit', 'p.csv', '--row', '0']],
    [['template', '--format', 'xls']],
    [['--lang', 'fr', 'validate', 'x']],
    [['validate', 'x', '--lang', 'português']],
    [['nonsense']],
    [['settle']],
    [['settle', 'PROP-1', '--contract']],
    [['sandbox', 'trigger', 'approved', '--proposal', 'P', '--set', '__proto__.x=1']],
    [['sandbox', 'trigger', 'approved', '--proposal', 'P', '--set-json', 'a..b=1']],
    [['sandbox', 'trigger', 'approved', '--proposal', 'P', '--times', '101']],
    [['events', '--limit', '99999999999999999999']],
    [['history', '--limit', '9007199254740993']],
  ])('%j', async (argv) => {
    const error = await parseError(argv);
    expect(error.code).toMatch(/^commander\./);
    expect(error.exitCode).not.toBe(0);
  });
});

describe('--lang decides the run\'s language once, in main.ts', () => {
  const scratchHome = mkdtempSync(join(tmpdir(), 'econsig-cli-lang-'));
  afterAll(() => rmSync(scratchHome, { recursive: true, force: true }));

  /** Run main with `argv` and `env`; what it wrote on stderr. */
  async function stderrOf(argv: string[], env: Record<string, string>): Promise<string> {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (chunk: Buffer) => void (text += chunk.toString()));
    await main(['node', 'econsig', ...argv], { env, stdin: new PassThrough(), stdout: new PassThrough(), stderr });
    return text;
  }

  it.each([
    // --lang is global: before the command too.
    [['--lang', 'pt-BR', 'validate', 'nenhum.json'], {}, 'nenhum.json não existe'],
    [['validate', 'nenhum.json', '--lang', 'pt-BR'], {}, 'nenhum.json não existe'],
    [['validate', 'nenhum.json', '--lang=pt-BR'], {}, 'nenhum.json não existe'],
    [['validate', 'none.json', '--lang', 'en'], { LANG: 'pt_BR.UTF-8' }, 'none.json does not exist'],
    [['validate', 'nenhum.json'], { LANG: 'pt_BR.UTF-8' }, 'nenhum.json não existe'],
    // Refused here, before the sandbox is asked (it refuses them too, in zod's English).
    [['sandbox', 'trigger', 'denied', '--proposal', 'P', '--set', 'a.constructor.x=1'], { LANG: 'pt_BR.UTF-8' }, 'nenhum deles __proto__, constructor ou prototype'],
    [['sandbox', 'trigger', 'denied', '--proposal', 'P', '--times', String(MAX_TIMES + 1)], { LANG: 'pt_BR.UTF-8' }, `informe um número inteiro de 1 a ${MAX_TIMES}.`],
    // A limit past 2^53 is refused as typed, not by the store as a "datatype mismatch" (exit 74).
    [['events', '--limit', '99999999999999999999'], { LANG: 'pt_BR.UTF-8' }, 'informe um número inteiro de no máximo 9007199254740991.'],
    // The secret's check is watch's own, in the run's language (and before the store is opened).
    [['events', 'resend', '1', '--to', 'http://127.0.0.1:9/h', '--secret', 'whsec_@@@'], { LANG: 'pt_BR.UTF-8', ECONSIG_HOME: scratchHome }, 'O segredo de webhook vindo de --secret não serve'],
  ])('%j with %j says %s', async (argv, env, said) => {
    expect(await stderrOf(argv, env)).toContain(said);
  });
});

describe('the help in Portuguese (cli.ts names each description\'s key, area help)', () => {
  /** Every description the program shows in `lang` (commands, options, arguments), in the order of the program. */
  function descriptions(lang: Lang): string[] {
    const program = buildProgram(async () => 0, { writeOut: () => undefined, writeErr: () => undefined }, lang);
    const found: string[] = [];
    const walk = (command: { description(): string; options: readonly { description: string }[]; registeredArguments: readonly { description: string }[]; commands: readonly unknown[] }): void => {
      if (command.description()) found.push(command.description());
      for (const option of command.options) if (option.description) found.push(option.description);
      for (const argument of command.registeredArguments) if (argument.description) found.push(argument.description);
      for (const sub of command.commands) walk(sub as Parameters<typeof walk>[0]);
    };
    walk(program as unknown as Parameters<typeof walk>[0]);
    return found;
  }

  const portuguese = descriptions('pt-BR');
  it.each(descriptions('en').map((english, i) => [english, portuguese[i]]))('%s: has a Portuguese text in src/i18n/help.ts (name its key in cli.ts when you add an option)', (english, said) => {
    expect(said).toBeTruthy();
    expect(said).not.toBe(english);
  });

  it('English help is the text written in cli.ts; Portuguese help says titles, defaults and examples in Portuguese', () => {
    const render = (lang: 'en' | 'pt-BR'): string => {
      let out = '';
      const program = buildProgram(async () => 0, { writeOut: (text) => void (out += text), writeErr: (text) => void (out += text) }, lang);
      const validate = program.commands.find((c) => c.name() === 'validate');
      validate?.outputHelp();
      return out;
    };
    const en = render('en');
    expect(en).toContain('Usage: econsig validate');
    expect(en).toContain('check submission files locally; sends nothing');
    expect(en).toContain('# one submission per row');
    const pt = render('pt-BR');
    expect(pt).toContain('Uso: econsig validate');
    expect(pt).toContain('confere arquivos de submissão aqui mesmo; não envia nada');
    expect(pt).toContain('Opções globais:');
    expect(pt).toMatch(/\(valores: "csv", "xlsx"\)/);
    expect(pt).toContain('Exemplos:');
    expect(pt).toContain('# uma submissão por linha');
  });
});
