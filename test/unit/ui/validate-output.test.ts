import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import { captureIo } from './capture.js';
import { createValidationOutput } from '../../../src/ui/validate-output.js';
import type { FileReport } from '../../../src/domain/report.js';
import { msg, say } from '../../../src/i18n/index.js';
import type { Issue } from '../../../src/domain/issue.js';

const capture = (json: boolean, lang: 'pt-BR' | 'en' = 'en') => captureIo(lang, json);

/** Reports with non-ASCII text and characters JSON must escape. */
function reports(count: number): FileReport[] {
  return Array.from({ length: count }, (_, i) => {
    const ok = i % 7 !== 3;
    return {
      file: `lotes/São Paulo/proposta-${i}.json`,
      ok,
      errors: ok
        ? []
        : [
            { path: 'pessoa.endereco.cep', message: msg('rule.cep') },
            // A second issue, with what JSON must escape: quotes, backslash, control and line-separator characters.
            ...(i % 2 ? [{ path: 'pessoa.nome', message: msg('rule.notRealDate', { value: `tab\there, "quoted" \\ and\u2028a\u0000b ${i}` }) }] : []),
            // One message larger than a piece of text output.
            ...(i === 1_235 ? [{ path: 'pessoa.email', message: msg('rule.notRealDate', { value: `${'é'.repeat(40_000)}!` }) }] : []),
          ],
      warnings: i % 2 ? [{ path: 'pessoa.naturalidade', message: msg('rule.changed', { notes: 'accents composed (Unicode NFC)', from: '"Ribeira\u0303o"', to: `"Ribeirão" ${i}` }) }] : [],
      exitCode: ok ? ExitCode.ok : ExitCode.invalid,
    };
  });
}

describe('validate output, written as the reports come', () => {
  it('--json is the contract document, byte for byte', async () => {
    const all = reports(3_000); // about 500 KB
    const c = capture(true);
    const output = createValidationOutput(c.io, { strict: false, total: all.length });
    for (const r of all) output.add(r);
    output.finish();
    await new Promise((resolve) => setImmediate(resolve));
    const said = (issues: Issue[]) => issues.map((issue) => ({ path: issue.path, message: say('en', issue.message) }));
    const expected = { ok: false, files: all.map((r) => ({ file: r.file, ok: r.ok, errors: said(r.errors), warnings: said(r.warnings) })) };
    expect(c.stdout()).toBe(`${JSON.stringify(expected)}\n`);
    expect(c.stderr()).toBe('');
  });

  it('--json of one clean file says ok: true', async () => {
    const c = capture(true);
    const output = createValidationOutput(c.io, { strict: false, total: 1 });
    output.add({ file: 'a.json', ok: true, errors: [], warnings: [], exitCode: ExitCode.ok });
    output.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.parse(c.stdout())).toEqual({ ok: true, files: [{ file: 'a.json', ok: true, errors: [], warnings: [] }] });
  });

  it('text lists every problem of every file, then a summary that counts them all', async () => {
    const all = reports(3_000);
    const c = capture(false);
    const output = createValidationOutput(c.io, { strict: false, total: all.length });
    for (const r of all) output.add(r);
    output.finish();
    await new Promise((resolve) => setImmediate(resolve));
    const lines = c.stderr().trimEnd().split('\n');
    const invalid = all.filter((r) => !r.ok).length;
    const warned = all.filter((r) => r.warnings.length > 0).length;
    const errors = all.reduce((sum, r) => sum + r.errors.length, 0);
    expect(lines.filter((l) => l.startsWith('✗ ')).length).toBe(invalid);
    expect(lines.filter((l) => l.includes('error   pessoa.endereco.cep')).length).toBe(invalid);
    expect(lines.filter((l) => l.includes('warning pessoa.naturalidade')).length).toBe(warned);
    expect(lines.at(-1)).toBe(`3000 files: ${3000 - invalid} valid, ${invalid} invalid (${errors} errors, ${warned} warnings)`);
    expect(c.stdout()).toBe('');
  });

  it.each([
    [1, 1, 0, 0, '1 arquivo: 1 válido, 0 inválidos (0 erros, 0 avisos)'],
    [2, 1, 1, 1, '2 arquivos: 1 válido, 1 inválido (1 erro, 1 aviso)'],
    [3, 0, 3, 2, '3 arquivos: 0 válidos, 3 inválidos (3 erros, 2 avisos)'],
  ])('in Portuguese, %i file(s), %i valid: the summary agrees in number', async (total, valid, errors, warnings, summary) => {
    const c = capture(false, 'pt-BR');
    const output = createValidationOutput(c.io, { strict: false, total });
    for (let i = 0; i < total; i++) {
      const ok = i < valid;
      output.add({
        file: `p${i}.json`,
        ok,
        errors: ok ? [] : [{ path: 'pessoa.endereco.cep', message: msg('rule.cep') }],
        warnings: i < warnings ? [{ path: 'pessoa.nome', message: msg('rule.emptyAbsent') }] : [],
        exitCode: ok ? ExitCode.ok : ExitCode.invalid,
      });
    }
    output.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toBe(total - valid);
    expect(c.stderr().trimEnd().split('\n').at(-1)).toBe(summary);
    if (total > valid) expect(c.stderr()).toContain('    erro    pessoa.endereco.cep: deve ter 8 dígitos');
  });
});
