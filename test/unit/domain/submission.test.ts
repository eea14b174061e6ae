import { describe, expect, it } from 'vitest';
import { submissionJsonSchema } from '../../../src/domain/json-schema.js';
import { fieldSchemas, type FieldPath, messageOfZod } from '../../../src/domain/submission.js';
import { say } from '../../../src/i18n/index.js';

const messageOf = (path: FieldPath, value: unknown): string | undefined => {
  const issue = fieldSchemas[path].safeParse(value).error?.issues[0];
  return issue && say({ lang: 'en', reveal: true }, messageOfZod(issue));
};

describe('field messages say what is expected and show a good value', () => {
  it.each<[FieldPath, unknown, RegExp]>([
    ['pessoa.endereco.cep', 1310100, /not a number \(numbers lose leading zeros\), e\.g\. "01310100"/],
    ['pessoa.endereco.cep', undefined, /^is required: postal code/],
    ['pessoa.endereco.cep', null, /^must not be null/],
    ['pessoa.endereco.cep', '00000000', /not a real CEP/],
    ['pessoa.telefone', '5511987654321', /e\.g\. \+5511987654321/], // the fix, spelled out (revealed)
    ['pessoa.telefone', '+5520987654321', /area code 20/],
    ['pessoa.estadoCivil', 'CASADA', /did you mean CASADO\?/],
    ['pessoa.endereco.numero', '', /send "0"/],
    ['pessoa.documento.dataDeEmissao', '2015/03/21', /YYYY-MM-DD/],
    ['pessoa.documento.dataDeEmissao', '2023-02-29', /not a real calendar date/],
    ['pessoa.documento.numero', '12.345.678-9', /without dots/],
    ['contaBancaria.conta', '12345-X', /letter check digit/],
    ['contaBancaria.conta', `${'1'.repeat(16)}-1`, /at most 17 characters/],
    ['pessoa.endereco.complemento', null, /must be text or left out/],
  ])('%s %j → %s', (path, value, message) => expect(messageOf(path, value)).toMatch(message));

  it("the fix spelled out from a person's phone is masked unless the run reveals it", () => {
    const issue = fieldSchemas['pessoa.telefone'].safeParse('5511987654321').error?.issues[0];
    expect(issue && say('en', messageOfZod(issue))).toMatch(/e\.g\. \+55\*{4}4321$/);
  });

  it.each<[FieldPath, unknown]>([
    ['pessoa.endereco.complemento', undefined],
    ['pessoa.endereco.complemento', ''],
    ['contaBancaria.chavePix', ''],
    ['contaBancaria.conta', `${'1'.repeat(15)}-1`],
    ['pessoa.documento.numero', '12345678X'],
    ['pessoa.telefone', '+14155552671'],
  ])('%s %j → accepted', (path, value) => expect(messageOf(path, value)).toBeUndefined());
});

describe('submissionJsonSchema', () => {
  const schema = submissionJsonSchema() as {
    required?: string[];
    properties: Record<string, { anyOf?: unknown; required?: string[] }>;
  };
  it('requires the three top-level fields', () => expect(schema.required?.sort()).toEqual(['contaBancaria', 'idProposta', 'pessoa']));
  it('states the either/or payout rule', () =>
    expect(schema.properties.contaBancaria?.anyOf).toEqual([{ required: ['compe', 'agencia', 'conta', 'tipo'] }, { required: ['chavePix'] }]));
});
