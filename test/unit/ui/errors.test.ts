import { describe, expect, it } from 'vitest';
import { EconsigError, ExitCode, UsageError } from '../../../src/errors.js';
import { msg } from '../../../src/i18n/index.js';
import { captureIo } from './capture.js';
import { renderError, usageMessage } from '../../../src/ui/errors.js';

const capture = captureIo;

describe('commander usage errors, said by their code (ui/errors.ts usageMessage)', () => {
  it.each([
    ['commander.unknownOption', "error: unknown option '--bogus'\n(Did you mean --json?)", 'opção desconhecida: --bogus (veja --help)', 'Você quis dizer --json?'],
    ['commander.unknownCommand', "error: unknown command 'valdate'\n(Did you mean validate?)", 'comando desconhecido: valdate (veja econsig --help)', 'Você quis dizer validate?'],
    ['commander.missingArgument', "error: missing required argument 'key'", 'falta o argumento key (veja --help)', undefined],
    ['commander.optionMissingArgument', "error: option '--port <n>' argument missing", 'a opção --port <n> precisa de um valor', undefined],
    ['commander.excessArguments', "error: too many arguments for 'get'. Expected 1 argument but got 2: a, b.", 'argumentos demais: a, b', undefined],
    [
      'commander.invalidArgument',
      "error: option '--port <n>' argument 'abc' is invalid. cli.expectPort",
      'valor inválido abc em --port <n>: informe uma porta de 0 a 65535 (0 escolhe uma livre).',
      undefined,
    ],
    [
      'commander.invalidArgument',
      "error: option '--format <format>' argument 'pdf' is invalid. Allowed choices are csv, xlsx.",
      'valor inválido pdf em --format <format>: use um destes: csv, xlsx.',
      undefined,
    ],
  ])('%s in Portuguese', (code, message, said, hint) => {
    expect(usageMessage('pt-BR', { code, message })).toEqual({ message: said, ...(hint ? { hint } : {}) });
  });

  it('keeps commander\'s English (without its "error: ") in English', () => {
    expect(usageMessage('en', { code: 'commander.unknownOption', message: "error: unknown option '--bogus'" })).toEqual({ message: "unknown option '--bogus'" });
  });

  it('shows a message of a shape it does not know as it is', () => {
    expect(usageMessage('pt-BR', { code: 'commander.somethingNew', message: 'error: a new kind of mistake' })).toEqual({ message: 'a new kind of mistake' });
  });
});

describe('the error boundary (ui/errors.ts renderError)', () => {
  const noBaseUrl = () => new UsageError(msg('config.noBaseUrl', { profile: 'homolog' }), msg('config.noBaseUrlHint', { profile: 'homolog' }));

  it('keeps the English text as the error message, for logs and the store', () => {
    expect(noBaseUrl().message).toBe('Profile "homolog" has no base-url.');
  });

  it('says a catalogue text in the run\'s language; --json keeps the field names and adds the key as code', () => {
    const c = capture('pt-BR', true);
    expect(renderError(noBaseUrl(), c.io)).toBe(ExitCode.usage);
    expect(c.stderr()).toContain('erro: O perfil "homolog" não tem base-url.\n  dica: Rode `econsig config set base-url https://... --profile homolog`');
    expect(JSON.parse(c.stdout())).toEqual({
      ok: false,
      error: {
        message: 'O perfil "homolog" não tem base-url.',
        cause: null,
        hint: 'Rode `econsig config set base-url https://... --profile homolog`, ou informe --base-url ou a variável ECONSIG_BASE_URL.',
        exitCode: 2,
        code: 'config.noBaseUrl',
      },
    });
  });

  it('says a text inside a text (a reason inside a message) in the same language', () => {
    const c = capture('pt-BR');
    const error = new UsageError(msg('config.invalidValue', { shown: ' "0"', key: 'concurrency', where: '', reason: msg('config.expectConcurrency') }));
    renderError(error, c.io);
    expect(c.stderr()).toBe('erro: Valor inválido "0" para concurrency: informe um número inteiro de 1 a 256.\n');
  });

  it('shows a plain message as it is, and a system cause by its code only in Portuguese', () => {
    const cause = Object.assign(new Error('EACCES: permission denied, open \'/x\''), { code: 'EACCES' });
    const pt = capture('pt-BR');
    renderError(new EconsigError('something', { exitCode: ExitCode.storage, cause }), pt.io);
    expect(pt.stderr()).toBe('erro: something\n  causa: EACCES\n');
    const en = capture('en');
    renderError(new EconsigError('something', { exitCode: ExitCode.storage, cause }), en.io);
    expect(en.stderr()).toBe("error: something\n  cause: EACCES: permission denied, open '/x' (EACCES)\n");
  });

  it('an unexpected error is a bug (70), said in the reader\'s language', () => {
    const c = capture('pt-BR');
    expect(renderError(new TypeError('x is undefined'), c.io)).toBe(ExitCode.bug);
    expect(c.stderr()).toBe('erro: erro interno: x is undefined\n  dica: Isto é um defeito do econsig. Rode de novo com --verbose e envie a saída à equipe.\n');
  });
});
