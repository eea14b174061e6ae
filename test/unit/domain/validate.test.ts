import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ValidateOptions, validateSubmission as validate } from '../../../src/domain/validate.js';
import { inEnglish } from '../in-english.js';

const validateSubmission = (input: unknown, options: ValidateOptions) => inEnglish(validate(input, options));

const fixtures = new URL('../../../fixtures/', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, fixtures), 'utf8');
const load = (name: string): Record<string, unknown> => JSON.parse(read(name)) as Record<string, unknown>;

// Mid-day local time, so the local calendar date is 2025-06-15 in every time zone.
const now = new Date(2025, 5, 15, 12, 0, 0);

/** A deep copy of the bank-only fixture with `contaBancaria` replaced. */
function withConta(conta: Record<string, unknown>): Record<string, unknown> {
  return { ...load('valid/bank-only.json'), contaBancaria: conta };
}

function withField(path: string, value: unknown): Record<string, unknown> {
  const doc = load('valid/bank-only.json');
  const keys = path.split('.');
  const last = keys.pop() as string;
  const parent = keys.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, doc);
  parent[last] = value;
  return doc;
}

const paths = (issues: ReadonlyArray<{ path: string }>): string[] => issues.map((i) => i.path);

const bank = { compe: '001', agencia: '0456', conta: '98765-4', tipo: 'POUPANCA' };

describe('valid fixtures', () => {
  it.each(readdirSync(new URL('valid/', fixtures)).filter((f) => f.endsWith('.json')))('%s passes with a value', (file) => {
    const result = validateSubmission(load(`valid/${file}`), { now });
    expect(result.errors).toEqual([]);
    expect(result.value?.idProposta).toMatch(/^PROP-\d+$/);
  });

  it.each(['valid/bank-only.json', 'valid/pix-only.json'])('%s passes in strict mode too, unchanged', (file) => {
    const result = validateSubmission(load(file), { now, normalize: false });
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual(load(file));
  });
});

// The fault each file name announces, as the dotted path of its one error.
const invalidFixtures: Record<string, string | string[] | 'unparseable'> = {
  'agencia-too-long.json': 'contaBancaria.agencia',
  'array-not-object.json': '(root)',
  'bank-data-incomplete.json': ['contaBancaria.conta', 'contaBancaria.tipo'], // one per missing field
  'cep-all-zeros.json': 'pessoa.endereco.cep',
  'cep-as-number.json': 'pessoa.endereco.cep',
  'cep-too-short.json': 'pessoa.endereco.cep',
  'cnh-bad-check-digit.json': 'pessoa.documento.numero',
  'compe-two-digits.json': 'contaBancaria.compe',
  'conta-letter-check-digit.json': 'contaBancaria.conta',
  'conta-without-check-digit.json': 'contaBancaria.conta',
  'date-in-future.json': 'pessoa.documento.dataDeEmissao',
  'date-not-real.json': 'pessoa.documento.dataDeEmissao',
  'documento-uf-missing.json': 'pessoa.documento.uf',
  'email-invalid.json': 'pessoa.email',
  'empty.json': 'unparseable',
  'endereco-numero-empty.json': 'pessoa.endereco.numero',
  'estado-civil-unknown.json': 'pessoa.estadoCivil',
  'id-proposta-blank.json': 'idProposta',
  'not-json.json': 'unparseable',
  'null-document.json': '(root)',
  'payout-missing.json': 'contaBancaria',
  'pessoa-missing.json': 'pessoa',
  'pix-cnpj-key.json': 'contaBancaria.chavePix',
  'pix-cpf-bad-check-digit.json': 'contaBancaria.chavePix',
  'pix-evp-uppercase.json': 'contaBancaria.chavePix',
  'pix-phone-landline.json': 'contaBancaria.chavePix',
  'proto-key.json': 'idProposta', // the idProposta hidden under __proto__ is not used
  'telefone-unknown-ddd.json': 'pessoa.telefone',
  'telefone-without-plus.json': 'pessoa.telefone',
  'tipo-conta-unknown.json': 'contaBancaria.tipo',
  'tipo-documento-unknown.json': 'pessoa.documento.tipoDocumento',
  'uf-unknown.json': 'pessoa.endereco.uf',
};

describe('invalid fixtures', () => {
  it('the table names every file in fixtures/invalid', () =>
    expect(readdirSync(new URL('invalid/', fixtures)).filter((f) => f.endsWith('.json')).sort()).toEqual(
      Object.keys(invalidFixtures).sort(),
    ));

  const parseable = Object.entries(invalidFixtures).filter(([, path]) => path !== 'unparseable');
  it.each(parseable)('%s → error at %s only', (file, expected) => {
    const result = validateSubmission(load(`invalid/${file}`), { now });
    expect(paths(result.errors)).toEqual(Array.isArray(expected) ? expected : [expected]);
    expect(result.value).toBeUndefined();
  });
});

describe('strict mode (normalize: false)', () => {
  it.each([
    ['pessoa.endereco.cep', '01310-100'],
    ['pessoa.endereco.uf', 'pe'],
    ['pessoa.telefone', '(81) 3234-5678'],
    ['pessoa.documento.dataDeEmissao', '30/11/2010'],
    ['contaBancaria.agencia', '456'],
    ['pessoa.estadoCivil', 'união estável'],
  ])('%s %j: accepted when normalising, refused when strict', (path, value) => {
    const doc = withField(path, value);
    const normal = validateSubmission(doc, { now });
    expect(normal.errors).toEqual([]);
    expect(paths(normal.warnings)).toContain(path);
    const strict = validateSubmission(doc, { now, normalize: false });
    expect(paths(strict.errors)).toEqual([path]);
    expect(strict.warnings).toEqual([]);
  });

  it('drops unknown fields silently from the value (no warnings in strict mode)', () => {
    const result = validateSubmission({ ...load('valid/bank-only.json'), observacao: 'x' }, { now, normalize: false });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });
});

describe('contaBancaria: bank data or Pix key (docs/service.md 2.5)', () => {
  it.each([{}, { chavePix: '' }, { chavePix: ' \u200b ' }])('%j → one error at contaBancaria', (conta) => {
    const result = validateSubmission(withConta(conta), { now });
    expect(result.errors).toEqual([{ path: 'contaBancaria', message: expect.stringMatching(/neither was given/) }]);
  });

  it.each([
    [{ compe: '001' }, ['agencia', 'conta', 'tipo']],
    [{ compe: '001', agencia: '0456' }, ['conta', 'tipo']],
    [{ agencia: '0456', conta: '98765-4', tipo: 'POUPANCA' }, ['compe']],
    [{ compe: '001', agencia: '0456', conta: '98765-4', chavePix: '' }, ['tipo']],
  ])('partial %j without Pix → an error per missing field', (conta, missing) => {
    const result = validateSubmission(withConta(conta), { now });
    expect(paths(result.errors)).toEqual(missing.map((name) => `contaBancaria.${name}`));
    for (const error of result.errors) expect(error.message).toContain(`missing ${missing.join(', ')}`);
  });

  it.each([
    [{ ...bank, chavePix: '52998224725' }, /both bank data and a Pix key/],
    [{ compe: '001', chavePix: '52998224725' }, /incomplete bank data \(compe\) with a Pix key/],
    [{ agencia: '0456', conta: '98765-4', chavePix: 'ana@example.com' }, /incomplete bank data \(agencia, conta\)/],
  ])('%j → valid, with a warning at contaBancaria', (conta, message) => {
    const result = validateSubmission(withConta(conta), { now });
    expect(result.errors).toEqual([]);
    expect(result.value).toBeDefined();
    expect(result.warnings).toEqual([{ path: 'contaBancaria', message: expect.stringMatching(message) }]);
  });

  it.each([
    '52998224726',
    '+551132345678',
    'Fulano@Example.com'.replace('@', '%@'),
    '11222333000181',
    '00000000-0000-0000-0000-000000000000',
  ])('complete bank data with invalid Pix %j → error at contaBancaria.chavePix', (chavePix) => {
    const result = validateSubmission(withConta({ ...bank, chavePix }), { now });
    expect(paths(result.errors)).toEqual(['contaBancaria.chavePix']);
  });

  it('Pix only: no warning and no bank fields in the value', () => {
    const result = validateSubmission(withConta({ chavePix: '+5581998765432' }), { now });
    expect(result.warnings).toEqual([]);
    expect(result.value?.contaBancaria).toEqual({ chavePix: '+5581998765432' });
  });
});

describe('dataDeEmissao against the `now` passed in', () => {
  it.each([
    ['2025-06-14', true],
    ['2025-06-15', true],
    ['2025-06-16', false],
    ['2026-01-01', false],
    ['15/06/2025', true],
    ['16/06/2025', false],
  ])('%s with today 2025-06-15 → valid %s', (date, valid) => {
    const result = validateSubmission(withField('pessoa.documento.dataDeEmissao', date), { now });
    expect(paths(result.errors)).toEqual(valid ? [] : ['pessoa.documento.dataDeEmissao']);
    if (!valid) expect(result.errors[0]?.message).toContain('today is 2025-06-15');
  });

  it('the same document passes once `now` has moved on', () => {
    const doc = withField('pessoa.documento.dataDeEmissao', '2025-06-16');
    expect(validateSubmission(doc, { now: new Date(2025, 5, 16, 12) }).errors).toEqual([]);
    expect(validateSubmission(doc, { now: new Date(2025, 5, 15, 23, 59) }).errors).toHaveLength(1);
  });
});

describe('other rules', () => {
  it.each([
    ['pessoa.endereco.cep', '01310100', 'pessoa.endereco.cep'], // SP CEP, PE address
    ['pessoa.documento.orgaoExpedidor', 'SDS/PE', 'pessoa.documento.orgaoExpedidor'],
    ['contaBancaria.compe', '999', 'contaBancaria.compe'],
  ])('%s %j → valid with a warning', (path, value, warningPath) => {
    const result = validateSubmission(withField(path, value), { now });
    expect(result.errors).toEqual([]);
    expect(paths(result.warnings)).toEqual([warningPath]);
  });

  it.each([
    ['pessoa.documento', { numero: 'SP123456789', orgaoExpedidor: 'DETRAN', uf: 'SP', dataDeEmissao: '2019-08-02', tipoDocumento: 'CNH' }, /RENACH/],
    ['pessoa.documento', { numero: '123456789', orgaoExpedidor: 'DETRAN', uf: 'SP', dataDeEmissao: '2019-08-02', tipoDocumento: 'CNH' }, /11 digits/],
  ])('CNH number rule: %s → %s', (path, value, message) => {
    const result = validateSubmission(withField(path, value), { now });
    expect(result.errors).toEqual([{ path: 'pessoa.documento.numero', message: expect.stringMatching(message) }]);
  });

  it('returns every problem of a document in one run', () => {
    const doc = withField('pessoa.endereco.cep', '0131010');
    (doc.pessoa as Record<string, unknown>).telefone = '5511987654321';
    (doc.contaBancaria as Record<string, unknown>).agencia = '12345';
    expect(paths(validateSubmission(doc, { now }).errors).sort()).toEqual(
      ['contaBancaria.agencia', 'pessoa.endereco.cep', 'pessoa.telefone'],
    );
  });

  it.each([[[]], [null], ['text'], [42]])('%j → one error at (root)', (input) =>
    expect(paths(validateSubmission(input, { now }).errors)).toEqual(['(root)']));
});

describe('issue date bounds', () => {
  it.each([
    ['1899-12-31', /before 1900/],
    ['0099-01-01', /before 1900/],
    ['2025-06-16', /in the future/],
  ])('%s is refused: %s', (date, message) => {
    const result = validateSubmission(withField('pessoa.documento.dataDeEmissao', date), { now });
    expect(result.errors).toEqual([{ path: 'pessoa.documento.dataDeEmissao', message: expect.stringMatching(message) }]);
  });

  it('1900-01-01 and today are accepted', () => {
    for (const date of ['1900-01-01', '2025-06-15']) {
      expect(validateSubmission(withField('pessoa.documento.dataDeEmissao', date), { now }).errors).toEqual([]);
    }
  });
});

describe('a Pix key with empty bank fields', () => {
  it('is valid: empty bank fields are absent, the key is enough (docs/service.md 2.5 rule 1)', () => {
    const result = validateSubmission(withConta({ chavePix: '52998224725', tipo: '', compe: '' }), { now });
    expect(result.errors).toEqual([]);
    expect(result.value?.contaBancaria).toEqual({ chavePix: '52998224725' });
  });
});

describe('formula-looking text (docs/spreadsheets.md, "No formula reaches a spreadsheet")', () => {
  it('warns for each text field that a spreadsheet would run, still valid; strict checking adds no warning', () => {
    const result = validateSubmission(load('warnings/formula-in-text.json'), { now });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      { path: 'pessoa.naturalidade', message: 'starts with "=": a spreadsheet would run it as a formula (the results CSV writes it with a leading \')' },
      { path: 'pessoa.endereco.rua', message: expect.stringContaining('starts with "+"') },
      { path: 'pessoa.endereco.complemento', message: expect.stringContaining('starts with "@"') },
    ]);
    expect(validateSubmission(load('warnings/formula-in-text.json'), { now, normalize: false }).warnings).toEqual([]);
  });
});
