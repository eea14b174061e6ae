import { describe, expect, it } from 'vitest';
import { say } from '../../../src/i18n/index.js';
import { normalizeField, normalizePhone, normalizeSubmission as normalize } from '../../../src/domain/normalize.js';
import { maskPersonal, personalKindOfPath } from '../../../src/redact.js';
import { inEnglish } from '../in-english.js';

const normalizeSubmission = (input: Record<string, unknown>) => inEnglish(normalize(input));

/** `{a: {b: value}}` from `a.b`. */
function nest(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

function pick(tree: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], tree);
}

// docs/cli-contract.md "Normalising input": each rewrite, input → output.
const rewrites: Array<[path: string, input: string, output: string]> = [
  ['idProposta', '  PROP-1001  ', 'PROP-1001'],
  ['idProposta', '\tPROP-1001\n', 'PROP-1001'],
  ['idProposta', 'PROP-1001\u200b', 'PROP-1001'],
  ['pessoa.naturalidade', '\u200b\u2060 São Paulo \u200d', 'São Paulo'],
  ['pessoa.endereco.cidade', 'Sa\u0303o Paulo', 'São Paulo'], // NFD → NFC
  ['pessoa.endereco.rua', '\ufeffAvenida Paulista', 'Avenida Paulista'],
  ['contaBancaria.agencia', '1', '0001'],
  ['contaBancaria.agencia', '12', '0012'],
  ['contaBancaria.agencia', '123', '0123'],
  ['contaBancaria.agencia', ' 7 ', '0007'],
  ['pessoa.endereco.cep', '01310-100', '01310100'],
  ['pessoa.endereco.cep', '01.310-100', '01310100'],
  ['pessoa.endereco.cep', ' 01310-100 ', '01310100'],
  ['pessoa.documento.numero', '12.345.678-9', '123456789'],
  ['pessoa.documento.numero', '12.345.678-X', '12345678X'],
  ['contaBancaria.chavePix', '529.982.247-25', '52998224725'],
  ['contaBancaria.chavePix', '529982247-25', '52998224725'],
  // Printed as a CPF, judged as one: its wrong check digits are the rules' to name, not a phone (issue 24).
  ['contaBancaria.chavePix', '529.982.247-24', '52998224724'],
  ['contaBancaria.chavePix', 'Fulano@Example.com', 'fulano@example.com'],
  ['contaBancaria.chavePix', '+55 (11) 98765-4321', '+5511987654321'],
  ['contaBancaria.chavePix', '(11) 98765-4321', '+5511987654321'],
  ['pessoa.telefone', '(11) 98765-4321', '+5511987654321'],
  ['pessoa.telefone', '11 98765 4321', '+5511987654321'],
  ['pessoa.telefone', '11-98765-4321', '+5511987654321'],
  ['pessoa.telefone', '+55 (11) 98765-4321', '+5511987654321'],
  ['pessoa.telefone', '11987654321', '+5511987654321'],
  ['pessoa.telefone', '1132345678', '+551132345678'],
  ['pessoa.telefone', '(20) 98765-4321', '20987654321'], // DDD 20 does not exist: no +55
  ['pessoa.telefone', '+1 (415) 555-2671', '+14155552671'],
  ['pessoa.endereco.uf', 'sp', 'SP'],
  ['pessoa.endereco.uf', ' SP', 'SP'],
  ['pessoa.documento.uf', 'rj', 'RJ'],
  ['pessoa.estadoCivil', 'casado', 'CASADO'],
  ['pessoa.estadoCivil', 'união estável', 'UNIAO_ESTAVEL'],
  ['pessoa.estadoCivil', 'UNIÃO ESTÁVEL', 'UNIAO_ESTAVEL'],
  ['pessoa.estadoCivil', 'Viúvo', 'VIUVO'],
  ['pessoa.documento.tipoDocumento', 'rg', 'RG'],
  ['pessoa.documento.tipoDocumento', 'cnh', 'CNH'],
  ['contaBancaria.tipo', 'corrente', 'CORRENTE'],
  ['contaBancaria.tipo', 'Poupanca', 'POUPANCA'],
  ['pessoa.documento.dataDeEmissao', '21/03/2015', '2015-03-21'],
  ['pessoa.documento.dataDeEmissao', '5/8/2019', '2019-08-05'], // D/M/YYYY as clerks type it (issue 24; was left alone)
  ['pessoa.documento.dataDeEmissao', '1/3/2015', '2015-03-01'],
  ['pessoa.documento.dataDeEmissao', '05/8/2019', '2019-08-05'],
  ['pessoa.endereco.numero', 'S/N', '0'],
  ['pessoa.endereco.numero', 'SN', '0'],
  ['pessoa.endereco.numero', 's/n', '0'],
  ['pessoa.endereco.numero', ' S/N ', '0'],
];

// Values that must come out exactly as they went in, with no warning ("Nothing else is guessed").
const untouched: Array<[path: string, input: unknown]> = [
  ['pessoa.estadoCivil', 'CASADA'],
  ['pessoa.estadoCivil', 'CASADO'],
  ['contaBancaria.agencia', '12345'],
  ['contaBancaria.agencia', '1234-5'],
  ['contaBancaria.agencia', '0123'],
  ['contaBancaria.compe', '1'],
  ['contaBancaria.conta', '12345'],
  ['contaBancaria.conta', '12345-X'],
  ['contaBancaria.chavePix', '123E4567-E89B-12D3-A456-426614174000'],
  ['contaBancaria.chavePix', '123e4567e89b12d3a456426614174000'],
  ['contaBancaria.chavePix', '11987654321'], // 11 bare digits are a CPF key, not a phone
  ['contaBancaria.chavePix', '52998224725'],
  ['contaBancaria.chavePix', '11222333000181'],
  ['pessoa.telefone', '5511987654321'],
  ['pessoa.telefone', '+5511987654321'],
  ['pessoa.telefone', '123456789'],
  ['pessoa.email', 'Maria@Example.com'], // only Pix e-mail keys are lower-cased
  ['pessoa.endereco.cep', '1310100'],
  ['pessoa.endereco.cep', 'ABCDEFGH'],
  ['pessoa.endereco.cep', 1310100],
  ['pessoa.endereco.uf', 'S.P.'],
  ['pessoa.endereco.uf', 'BR'],
  ['pessoa.endereco.numero', ''],
  ['pessoa.endereco.numero', '0'],
  ['pessoa.endereco.numero', '1578'],
  ['pessoa.endereco.complemento', ''],
  ['pessoa.documento.dataDeEmissao', '2015-03-21'],
  ['pessoa.documento.dataDeEmissao', '31-12-2020'],
  ['pessoa.naturalidade', 'São Paulo'],
  ['idProposta', 'PROP-1001'],
  ['idProposta', 42],
  ['idProposta', null],
];

describe('normalizeSubmission rewrites', () => {
  it.each(rewrites)('%s: %j → %j, with a warning at that path', (path, input, output) => {
    const { value, warnings } = normalizeSubmission(nest(path, input));
    expect(pick(value, path)).toBe(output);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.path).toBe(path);
    const kind = personalKindOfPath(path);
    if (kind === undefined) {
      expect(warnings[0]?.message).toContain(`${JSON.stringify(input)} → ${JSON.stringify(output)}`);
      return;
    }
    // A person's data: masked unless the run reveals it (--reveal), then shown as typed and as sent.
    expect(warnings[0]?.message).toContain(`${maskPersonal(kind, input)} → ${maskPersonal(kind, output)}`);
    expect(warnings[0]?.message).not.toContain(output);
    const revealed = say({ lang: 'en', reveal: true }, normalize(nest(path, input)).warnings[0]!.message);
    expect(revealed).toContain(`${input} → ${output}`);
  });
});

describe('normalizeSubmission leaves everything else alone', () => {
  it.each(untouched)('%s: %j unchanged, no warning', (path, input) => {
    const { value, warnings } = normalizeSubmission(nest(path, input));
    expect(pick(value, path)).toBe(input);
    expect(warnings).toEqual([]);
  });
});

describe('normalizeField notes', () => {
  it.each([
    ['pessoa.telefone', '11987654321', ['+55 added']],
    ['pessoa.telefone', '(11) 98765-4321', ['spaces, brackets and hyphens removed', '+55 added']],
    ['pessoa.endereco.cep', ' 01310-100', ['surrounding spaces trimmed', 'CEP stripped of punctuation']],
    ['contaBancaria.agencia', '7', ['zero-padded to 4 digits']],
    ['pessoa.endereco.cidade', 'Sa\u0303o Paulo', ['accents composed (Unicode NFC)']],
  ])('%s %j → %j', (path, raw, notes) => expect(normalizeField(path, raw).notes.map((note) => say('en', note))).toEqual(notes));
});

describe('normalizePhone', () => {
  it.each([
    ['11987654321', '+5511987654321'],
    ['1132345678', '+551132345678'],
    ['(61) 3234-5678', '+556132345678'],
    ['2098765432', undefined], // DDD 20: not guessed
    ['119876543210', undefined], // 12 digits: not a Brazilian national number
    ['987654321', undefined],
    ['+5511987654321', undefined],
  ])('%j → %j', (input, output) => expect(normalizePhone(input)?.value).toBe(output));
});

describe('absent-like values', () => {
  it.each([
    ['pessoa.endereco.complemento', null, /null complemento left out/],
    ['contaBancaria.chavePix', '', /empty, treated as absent/],
    ['contaBancaria.tipo', '', /empty, treated as absent/],
    ['contaBancaria.compe', '', /empty, treated as absent/],
  ])('%s %j is left out with a warning', (path, input, message) => {
    const { value, warnings } = normalizeSubmission(nest(path, input));
    const parent = pick(value, path.split('.').slice(0, -1).join('.')) as Record<string, unknown>;
    expect(Object.hasOwn(parent, path.split('.').at(-1) ?? '')).toBe(false);
    expect(warnings).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  it('a blank chavePix is trimmed, then treated as absent', () => {
    const { value, warnings } = normalizeSubmission(nest('contaBancaria.chavePix', '  '));
    expect(value).toEqual({ contaBancaria: {} });
    expect(warnings.map((w) => w.path)).toEqual(['contaBancaria.chavePix', 'contaBancaria.chavePix']);
  });
});

describe('unknown fields', () => {
  it.each([
    ['pessoa.endereco.CEP', /did you mean "cep"\?/],
    ['pessoa.estado_civil', /did you mean "estadoCivil"\?/],
    ['pessoa.telfone', /did you mean "telefone"\?/],
    ['contaBancaria.chave_pix', /did you mean "chavePix"\?/],
    ['pessoa.cep', /belongs at pessoa\.endereco\.cep$/],
    ['chavePix', /belongs at contaBancaria\.chavePix$/],
    ['pessoa.uf', /belongs at pessoa\.documento\.uf or pessoa\.endereco\.uf$/],
    ['observacao', /^unknown field, not sent \(the service does not define it\)$/],
    ['pessoa.documento.validade', /^unknown field, not sent/],
  ])('%s is dropped: %s', (path, message) => {
    const { value, warnings } = normalizeSubmission(nest(path, 'x'));
    expect(pick(value, path)).toBeUndefined();
    expect(JSON.stringify(value)).not.toContain('"x"');
    expect(warnings).toEqual([{ path, message: expect.stringMatching(message) }]);
  });
});

describe('prototype pollution', () => {
  const hostile = [
    '{"__proto__": {"polluted": "yes"}, "idProposta": "PROP-1"}',
    '{"pessoa": {"__proto__": {"polluted": "yes"}}}',
    '{"pessoa": {"endereco": {"__proto__": {"polluted": "yes"}, "cep": "01310100"}}}',
    '{"constructor": {"prototype": {"polluted": "yes"}}}',
  ];

  it.each(hostile)('%s: key dropped with a warning, Object.prototype untouched', (json) => {
    const input = JSON.parse(json) as Record<string, unknown>;
    const { value, warnings } = normalizeSubmission(input);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.path).toMatch(/(^|\.)(__proto__|constructor)$/);
    expect(JSON.stringify(value)).not.toContain('polluted');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('trimming only reports what it trims', () => {
  it.each(['\u00a0PROP-1001', 'PROP-1001\u3000', '\u2028PROP-1001', 'PROP-1001\u202f'])('%j → "PROP-1001"', (raw) =>
    expect(normalizeField('idProposta', raw)).toEqual({ value: 'PROP-1001', notes: ['rule.note.trimmed'] }));

  // Control characters are not spaces: neither stripped nor reported as trimmed.
  it.each(['\u0001PROP-1001', 'PROP-1001\u001f'])('%j: unchanged value, no "trimmed" note', (raw) => {
    const { value, notes } = normalizeField('idProposta', raw);
    expect(notes.length === 0 || value !== raw).toBe(true);
  });
});

describe('Pix keys with phone or CPF punctuation', () => {
  it.each([
    ['11-91234-5678', '+5511912345678', /phone key/],
    ['(11) 98765-4321', '+5511987654321', /phone key/],
    ['529 982 247 25', '52998224725', /CPF key/],
    ['529.982.247-25', '52998224725', /CPF key/],
  ])('%j → %j', (raw, expected, note) => {
    const { value, notes } = normalizeField('contaBancaria.chavePix', raw);
    expect(value).toBe(expected);
    expect(notes.map((n) => say('en', n)).join(' ')).toMatch(note);
  });
});

describe('copy on write', () => {
  const clean = (): Record<string, unknown> => ({
    idProposta: 'PROP-1001',
    pessoa: { naturalidade: 'Santos', endereco: { cep: '01310100', uf: 'SP', cidade: 'São Paulo' } },
    contaBancaria: { chavePix: 'maria@example.com' },
  });

  it('gives the document itself back when nothing changes', () => {
    const input = clean();
    const { value, warnings } = normalizeSubmission(input);
    expect(value).toBe(input);
    expect(warnings).toEqual([]);
  });

  it('copies from the first change on, keeps key order, and never changes the input', () => {
    const input = clean();
    (input.pessoa as Record<string, unknown>).endereco = { cep: '01310-100', extra: 1, uf: 'SP', cidade: 'São Paulo' };
    input.zzz = true;
    const before = structuredClone(input);
    const { value } = normalizeSubmission(input);
    expect(input).toEqual(before);
    expect(value).not.toBe(input);
    expect(JSON.stringify(value)).toBe(
      JSON.stringify({
        idProposta: 'PROP-1001',
        pessoa: { naturalidade: 'Santos', endereco: { cep: '01310100', uf: 'SP', cidade: 'São Paulo' } },
        contaBancaria: { chavePix: 'maria@example.com' },
      }),
    );
    // Untouched branches are shared, not copied.
    expect(value.contaBancaria).toBe(input.contaBancaria);
  });

  it('copies when a field is dropped as absent, even with nothing after it', () => {
    const input = clean();
    input.contaBancaria = { chavePix: 'maria@example.com', conta: '' };
    const { value } = normalizeSubmission(input);
    expect(value.contaBancaria).toEqual({ chavePix: 'maria@example.com' });
    expect(input.contaBancaria).toEqual({ chavePix: 'maria@example.com', conta: '' });
  });
});
