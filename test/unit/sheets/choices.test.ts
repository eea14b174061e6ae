import { describe, expect, it } from 'vitest';
import { CHOICE_FIELDS, allowedChoices, choiceOf } from '../../../src/sheets/choices.js';
import { SHEET_COLUMNS } from '../../../src/sheets/columns.js';
import { dropDownValues } from '../../../src/sheets/xlsx-writer.js';
import { say } from '../../../src/i18n/index.js';

describe('choiceOf: a coded cell as the code, the Portuguese or the English label', () => {
  it.each([
    ['pessoa.estadoCivil', 'CASADO', 'CASADO'],
    ['pessoa.estadoCivil', 'casado', 'CASADO'],
    ['pessoa.estadoCivil', 'Casado(a)', 'CASADO'],
    ['pessoa.estadoCivil', ' casado (a) ', 'CASADO'],
    ['pessoa.estadoCivil', 'Casada', 'CASADO'],
    ['pessoa.estadoCivil', 'Married', 'CASADO'],
    ['pessoa.estadoCivil', 'União estável', 'UNIAO_ESTAVEL'],
    ['pessoa.estadoCivil', 'UNIAO ESTAVEL', 'UNIAO_ESTAVEL'],
    ['pessoa.estadoCivil', 'uniao_estavel', 'UNIAO_ESTAVEL'],
    ['pessoa.estadoCivil', 'Viúva', 'VIUVO'],
    ['pessoa.estadoCivil', 'Separada judicialmente', 'SEPARADO_JUDICIALMENTE'],
    ['pessoa.estadoCivil', 'Não informado', 'NAO_INFORMADO'],
    ['pessoa.documento.tipoDocumento', 'rg', 'RG'],
    ['pessoa.documento.tipoDocumento', 'CNH (carteira de motorista)', 'CNH'],
    ['pessoa.documento.tipoDocumento', "CNH (driver's licence)", 'CNH'],
    ['contaBancaria.tipo', 'Conta corrente', 'CORRENTE'],
    ['contaBancaria.tipo', 'Corrente', 'CORRENTE'],
    ['contaBancaria.tipo', 'Poupança', 'POUPANCA'],
    ['contaBancaria.tipo', 'conta poupança', 'POUPANCA'],
    ['contaBancaria.tipo', 'Savings account', 'POUPANCA'],
  ])('%s: %j is %s', (path, text, code) => {
    expect(choiceOf(path, text)).toBe(code);
  });

  it.each([
    ['pessoa.estadoCivil', 'Noivo'],
    ['pessoa.estadoCivil', 'RG'],
    ['contaBancaria.tipo', 'Salário'],
    ['pessoa.documento.tipoDocumento', 'CPF'],
  ])('%s: %j is no value of it', (path, text) => {
    expect(choiceOf(path, text)).toBeUndefined();
  });

  it('lists the allowed values as labels with their codes, in the language asked', () => {
    expect(say('pt-BR', allowedChoices('contaBancaria.tipo'))).toBe('Conta corrente (CORRENTE), Conta poupança (POUPANCA)');
    expect(say('en', allowedChoices('pessoa.documento.tipoDocumento'))).toBe("RG (identity card) (RG), CNH (driver's licence) (CNH)");
  });
});

describe("the template's drop-down lists", () => {
  const listed = SHEET_COLUMNS.filter((c) => c.allowed !== undefined);

  it.each(listed.flatMap((c) => (['pt-BR', 'en'] as const).map((lang) => [c.path, lang, c] as const)))(
    '%s (%s): every value is one the reader accepts, and the list fits Excel (255 characters, no comma or quote)',
    (path, lang, column) => {
      const values = dropDownValues(column, lang);
      expect(values.length).toBeGreaterThan(1);
      for (const value of values) {
        if (path in CHOICE_FIELDS) expect(choiceOf(path, value), value).toBeDefined();
        else expect(column.allowed).toContain(value);
        expect(value).not.toMatch(/[,"]/);
      }
      expect(values.join(',').length).toBeLessThanOrEqual(255);
    },
  );

  it('offers the labels of the language, as the wizard shows them', () => {
    const estadoCivil = SHEET_COLUMNS.find((c) => c.path === 'pessoa.estadoCivil')!;
    expect(dropDownValues(estadoCivil, 'pt-BR')).toContain('Casado(a)');
    expect(dropDownValues(estadoCivil, 'en')).toContain('Stable union');
  });
});
