import { describe, expect, it } from 'vitest';
import { fieldSchemas } from '../../../src/domain/submission.js';
import { SHEET_COLUMNS, columnOfHeader, foldHeader } from '../../../src/sheets/columns.js';
import { cellText, mapHeader } from '../../../src/sheets/check-sheet.js';
import { type Lang, type Message, isMessageKey, say } from '../../../src/i18n/index.js';

const column = (path: string) => SHEET_COLUMNS.find((c) => c.path === path)!;

describe('columns', () => {
  it('one column per field of the submission', () => {
    expect(SHEET_COLUMNS.map((c) => c.path).sort()).toEqual(Object.keys(fieldSchemas).sort());
  });

  it('no two columns share a folded name', () => {
    const seen = new Map<string, string>();
    for (const c of SHEET_COLUMNS) {
      for (const name of [c.path, c.pt, c.en, ...c.aliases]) {
        const folded = foldHeader(name);
        expect(seen.get(folded) ?? c.path, `${name} of ${c.path}`).toBe(c.path);
        seen.set(folded, c.path);
      }
    }
  });

  it.each([
    ['CEP', 'pessoa.endereco.cep'],
    [' cep ', 'pessoa.endereco.cep'],
    ['pessoa.endereco.cep', 'pessoa.endereco.cep'],
    ['AGENCIA', 'contaBancaria.agencia'],
    ['Órgão Expedidor', 'pessoa.documento.orgaoExpedidor'],
    ['data de emissao', 'pessoa.documento.dataDeEmissao'],
    ['Número', 'pessoa.endereco.numero'],
    ['Número do documento', 'pessoa.documento.numero'],
    ['chavePix', 'contaBancaria.chavePix'],
    ['Pix key', 'contaBancaria.chavePix'],
  ])('header %j names %s', (header, path) => expect(columnOfHeader(header)?.path).toBe(path));
});

/** The header's mapping, its messages said in `lang` (the language the run would say them in). */
function mapIn(cells: readonly unknown[], lang: Lang) {
  const mapping = mapHeader(cells, lang);
  const said = <T extends { message: Message }>(issues: readonly T[]) => issues.map((issue) => ({ ...issue, message: say(lang, issue.message) }));
  return { ...mapping, warnings: said(mapping.warnings), errors: said(mapping.errors) };
}

describe('mapHeader', () => {
  it('names missing required columns and warns unknown ones with a near miss', () => {
    const mapping = mapIn(['Id da proposta', 'Agenca', 'CEP', 'CEP'], 'pt-BR');
    expect(mapping.warnings).toEqual([
      { path: '(header)', column: 'Agenca', message: 'coluna desconhecida "Agenca": ignorada; você quis dizer "Agência"?' },
      { path: 'pessoa.endereco.cep', column: 'CEP', message: 'a coluna "CEP" repete "CEP": ignorada' },
    ]);
    expect(mapping.errors).toContainEqual({ path: 'pessoa.naturalidade', column: 'Naturalidade', message: 'falta a coluna obrigatória "Naturalidade" (pessoa.naturalidade)' });
    expect(mapping.errors.at(-1)!.message).toMatch(/faltam as colunas do pagamento/);
    const en = mapIn(['Proposal id', 'Postl code'], 'en');
    expect(en.warnings).toEqual([{ path: '(header)', column: 'Postl code', message: 'unknown column "Postl code": ignored; did you mean "Postal code"?' }]);
    expect(en.errors).toContainEqual({ path: 'pessoa.naturalidade', column: 'City of birth', message: 'the required column "City of birth" (pessoa.naturalidade) is missing' });
  });

  it('names a missing column in the language the other headers are written in, whatever the messages are in', () => {
    const pt = mapIn(['Id da proposta', 'CEP', 'Agência'], 'en');
    expect(pt.errors).toContainEqual(expect.objectContaining({ path: 'pessoa.naturalidade', column: 'Naturalidade' }));
    const en = mapIn(['Proposal id', 'Postal code'], 'pt-BR');
    expect(en.errors).toContainEqual({ path: 'pessoa.naturalidade', column: 'City of birth', message: 'falta a coluna obrigatória "City of birth" (pessoa.naturalidade)' });
  });
});

describe('cellText', () => {
  it.each([
    [1310100, 'pessoa.endereco.cep', '01310100', true],
    [12, 'contaBancaria.agencia', '0012', true],
    [1, 'contaBancaria.compe', '001', true],
    [5541998765432, 'pessoa.telefone', '+5541998765432', true],
    [11987654321, 'pessoa.telefone', '11987654321', false],
    [341, 'contaBancaria.compe', '341', false],
    [123456789, 'pessoa.documento.numero', '123456789', false],
    [new Date(Date.UTC(2015, 2, 21)), 'pessoa.documento.dataDeEmissao', '2015-03-21', false],
    [{ formula: 'A1', result: 'Curitiba' }, 'pessoa.endereco.cidade', 'Curitiba', false],
    [{ richText: [{ text: 'Bela ' }, { text: 'Vista' }] }, 'pessoa.endereco.bairro', 'Bela Vista', false],
    [null, 'pessoa.endereco.bairro', '', false],
  ])('%j in %s → %j (warning: %s)', (value, path, text, warned) => {
    const converted = cellText(value, column(path));
    expect(converted.text).toBe(text);
    expect(converted.warning !== undefined).toBe(warned);
  });

  it('a formula without a cached value and an error cell are errors', () => {
    expect(say('en', cellText({ formula: 'A1' }, column('pessoa.endereco.cidade')).error as Message)).toMatch(/no computed value/);
    expect(say('en', cellText({ error: '#N/A' }, column('pessoa.endereco.cidade')).error as Message)).toBe('the cell holds the error #N/A');
  });
});

describe('the template explains every column', () => {
  it.each(SHEET_COLUMNS.map((c) => c.path))('%s has its explanation in the catalogue (sheet.help.<path>)', (path) => {
    expect(isMessageKey(`sheet.help.${path}`)).toBe(true);
  });
});
