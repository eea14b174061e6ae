import { describe, expect, it } from 'vitest';
import { suggest } from '../../src/suggest.js';

const keys = ['idProposta', 'pessoa', 'contaBancaria', 'cep', 'uf', 'estadoCivil', 'chavePix'];

describe('suggest', () => {
  it.each([
    ['CEP', 'cep'],
    ['estado_civil', 'estadoCivil'],
    ['estado-civil', 'estadoCivil'],
    ['Estado Civil', 'estadoCivil'],
    ['chave_pix', 'chavePix'],
    ['idPropsta', 'idProposta'], // one edit
    ['id_propsota', 'idProposta'], // two edits, long name
    ['pesoa', 'pessoa'],
    ['ce', 'cep'], // one edit on a short name
    ['UF', 'uf'],
    ['observacao', undefined],
    ['cpe', undefined], // two edits on a short name is too far
    ['xyz', undefined],
    ['', undefined],
  ])('%j → %j', (given, expected) => expect(suggest(given, keys)).toBe(expected));

  it.each([
    ['CASADA', ['SOLTEIRO', 'CASADO', 'DIVORCIADO'], 'CASADO'],
    ['uniao estavel', ['CASADO', 'UNIAO_ESTAVEL'], 'UNIAO_ESTAVEL'],
    ['CORENTE', ['CORRENTE', 'POUPANCA'], 'CORRENTE'],
    ['CONTA_CORRENTE', ['CORRENTE', 'POUPANCA'], undefined],
  ])('enum %j in %j → %j', (given, known, expected) => expect(suggest(given, known)).toBe(expected));
});
