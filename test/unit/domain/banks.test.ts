import { describe, expect, it } from 'vitest';
import { banksNamed } from '../../../src/domain/banks.js';

describe('banksNamed: a bank as a clerk writes it in a sheet (the wizard\'s table)', () => {
  it.each([
    ['Itaú', ['341']], // a whole word: not Banco ItauBank
    ['ITAU UNIBANCO', ['341']],
    ['bradesco', ['237']], // "Banco Bradesco S.A." without Banco and S.A., not Bradesco BBI
    ['Banco do Brasil', ['001']],
    ['Santander', ['033']],
    ['Caixa', ['104', '473']], // ambiguous: both, for the clerk to choose
    ['Banco Nenhum Conhecido', []],
    ['', []],
  ])('%s → %j', (term, codes) => {
    expect(banksNamed(term).map((b) => b.code)).toEqual(codes);
  });
});
