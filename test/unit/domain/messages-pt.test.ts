/**
 * The field rules in Portuguese (issue 14, 17): every invalid fixture, every warning and
 * every normalisation note gives the same paths in both languages, and no English
 * sentence in Portuguese. Field names, codes, values and examples stay as they are.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateSubmission } from '../../../src/domain/validate.js';
import { CATALOGUE, type Lang, say } from '../../../src/i18n/index.js';
import type { Issue } from '../../../src/domain/issue.js';

const fixtures = new URL('../../../fixtures/', import.meta.url);
const load = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));
const now = new Date(2025, 5, 15, 12, 0, 0);

/** English words that have no business in a Portuguese sentence (after quoted values and field paths are removed). */
const ENGLISH = /\b(the|is|are|must|not|be|an|and|or|with|without|of|digits|number|required|empty|text|valid|check|field|unknown|sent|given|state|bank|key|phone|date|did you mean)\b/i;

/** A message without what is not language: quoted values, field paths, codes in capitals, examples. */
function words(message: string): string {
  return message
    .replace(/"[^"]*"/g, '')
    .replace(/\b[a-z]+(?:\.[a-zA-Z]+)+\b/g, '')
    .replace(/\((?:[a-zA-Z]+, )+[a-zA-Z]+\)/g, '')
    .replace(/\b(?:idProposta|pessoa|contaBancaria|chavePix|compe|agencia|conta|tipo|naturalidade|documento|endereco|estadoCivil|email|telefone|numero|orgaoExpedidor|uf|dataDeEmissao|tipoDocumento|rua|complemento|bairro|cidade|cep|DICT|E\.164|UUID|CPF|CNH|CNPJ|RENACH|STR|CEP|Pix|JSON|null|MiB|YYYY-MM-DD)\b/g, '');
}

/** A document's problems, their messages said in `lang`. */
function validateIn(lang: Lang, document: unknown): { errors: Issue[]; warnings: Issue[] } & Record<'errorTexts' | 'warningTexts', string[]> {
  const result = validateSubmission(document, { now });
  return { ...result, errorTexts: result.errors.map((e) => say(lang, e.message)), warningTexts: result.warnings.map((w) => say(lang, w.message)) };
}

const invalid = readdirSync(new URL('invalid/', fixtures)).filter((f) => f.endsWith('.json') && f !== 'not-json.json' && f !== 'empty.json');

describe('field-rule messages in Portuguese', () => {
  it.each(invalid)('invalid/%s: the same paths, Portuguese words', (file) => {
    const document = load(`invalid/${file}`);
    const en = validateIn('en', document);
    const pt = validateIn('pt-BR', document);
    expect(pt.errors.map((e) => e.path)).toEqual(en.errors.map((e) => e.path));
    expect(pt.warnings.map((w) => w.path)).toEqual(en.warnings.map((w) => w.path));
    for (const text of [...pt.errorTexts, ...pt.warningTexts]) {
      expect(words(text), text).not.toMatch(ENGLISH);
    }
    expect(pt.errorTexts).not.toEqual(en.errorTexts);
  });

  it('warnings and normalisation notes too: unknown fields, rewrites, CEP outside the state, a state in the issuing body', () => {
    const document = {
      idProposta: ' PROP-1001',
      extra: 1,
      pessoa: {
        naturalidade: 'São Paulo',
        documento: { numero: '12.345.678-9', orgaoExpedidor: 'SSP/SP', uf: 'sp', dataDeEmissao: '21/03/2015', tipoDocumento: 'rg' },
        endereco: { rua: 'Avenida Paulista', numero: 's/n', bairro: 'Bela Vista', cidade: 'São Paulo', uf: 'RJ', cep: '01310-100', complemento: null },
        estadoCivil: 'união estável',
        email: 'maria@example.com',
        telefone: '(11) 98765-4321',
        cpf: '1',
      },
      contaBancaria: { compe: '999', agencia: '12', conta: '12345-6', tipo: 'corrente', chavePix: 'Maria@Example.com' },
    };
    const pt = validateIn('pt-BR', document);
    expect(pt.errors).toEqual([]);
    expect(pt.warnings.length).toBeGreaterThan(10);
    for (const text of pt.warningTexts) expect(words(text), text).not.toMatch(ENGLISH);
    expect(pt.warnings.filter((w) => w.path === 'pessoa.endereco.cep').map((w) => say('pt-BR', w.message))).toContain('o CEP 01310100 está fora da faixa postal de RJ; confira o CEP e a UF');
  });

  it('the Portuguese of the catalogue has no text left in English', () => {
    const same = Object.entries(CATALOGUE.en)
      .filter(([key, text]) => key.startsWith('rule.') && CATALOGUE['pt-BR'][key as keyof typeof CATALOGUE.en] === text)
      .map(([key]) => key);
    // Texts that are the same in both: placeholders and punctuation only, or a literal.
    expect(same.sort()).toEqual(['rule.changed', 'rule.found.null']);
  });
});
