/**
 * No message about a submission says a person's data whole unless the run reveals it
 * (--reveal): every rule and rewrite is run here on a person's fields with values that
 * trip it, and each message is said in both languages. A new rule that quotes a value
 * without `shownValue` (domain/issue.ts) or `personal` fails here.
 */
import { describe, expect, it } from 'vitest';
import { validateSubmission } from '../../../src/domain/validate.js';
import { type Lang, type Message, say } from '../../../src/i18n/index.js';
import { SHEET_COLUMNS } from '../../../src/sheets/columns.js';
import { cellText } from '../../../src/sheets/check-sheet.js';
import { readFileSync } from 'node:fs';

const now = new Date('2026-01-15T12:00:00Z');
const base = JSON.parse(readFileSync(new URL('../../../fixtures/valid/bank-and-pix.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;

/** Values that a person's fields are given in the wild, each tripping a rewrite or a rule. */
const values: Array<[path: string, value: unknown]> = [
  // Not the catalogue's own examples (a CPF "52998224725", a phone "+5511987654321"), which messages may show.
  ...['111.444.777-35', ' 11144477735 ', '111444777-35', '11144477736', '11912345678', '(11) 91234-5678', '+55 11 91234 5678', 'Maria.Silva@Example.com', ' maria.silva@example.com', '+5520912345678', '111.444.777-3X'].map(
    (v): [string, unknown] => ['contaBancaria.chavePix', v],
  ),
  ['contaBancaria.chavePix', 11144477735],
  ...['(11) 91234-5678', '5511912345678', '+5520912345678', '91234-5678', '+55 (11) 3234-5678', '011912345678', ' +5511912345678'].map((v): [string, unknown] => ['pessoa.telefone', v]),
  ['pessoa.telefone', 5511912345678],
  ...[' maria.silva@example.com ', 'maria.silva@', 'maria silva@example.com', 'MARIA.SILVA@EXAMPLE.COM'].map((v): [string, unknown] => ['pessoa.email', v]),
  ...[' 1234567-8', '1234567-X', '12345678', '1234567 - 8', `${'9'.repeat(17)}-1`].map((v): [string, unknown] => ['contaBancaria.conta', v]),
  ['contaBancaria.conta', 12345678],
  ...['12.345.678-9', ' 123456789 ', 'AB-123.456.789', '123456789012345678'].map((v): [string, unknown] => ['pessoa.documento.numero', v]),
];

function withValue(path: string, value: unknown): Record<string, unknown> {
  const doc = structuredClone(base) as Record<string, unknown>;
  const keys = path.split('.');
  let node = doc as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1] as string] = value;
  return doc;
}

/** The value as typed and its digits, when either would identify the person. */
function forms(value: unknown): string[] {
  const text = String(value).trim();
  const digits = text.replace(/\D/g, '');
  return [...new Set([text.length >= 5 ? text : '', digits.length >= 8 ? digits : '', text.split('@')[0]!.length >= 5 && text.includes('@') ? text.split('@')[0]! : ''].filter(Boolean))];
}

const said = (messages: readonly Message[], lang: Lang): string => messages.map((m) => say(lang, m)).join('\n');

describe("messages about a person's fields mask the person's data", () => {
  it.each(values)('%s = %j', (path, value) => {
    const result = validateSubmission(withValue(path, value), { now });
    const messages = [...result.errors, ...result.warnings].map((issue) => issue.message);
    for (const lang of ['en', 'pt-BR'] as const) {
      const text = said(messages, lang);
      for (const form of forms(value)) expect(text, `${lang}: ${text}`).not.toContain(form);
    }
  });

  it('a rewrite of a CPF key still says what it did, and --reveal shows the values', () => {
    const { warnings } = validateSubmission(withValue('contaBancaria.chavePix', '111.444.777-35'), { now });
    expect(said(warnings.map((w) => w.message), 'en')).toContain('***.444.777-** → ***.444.777-**');
    expect(warnings.map((w) => say({ lang: 'en', reveal: true }, w.message)).join('\n')).toContain('111.444.777-35 → 11144477735');
  });

  it("a sheet's number cells of a phone or a CNH number are masked too", () => {
    const column = (path: string) => SHEET_COLUMNS.find((c) => c.path === path)!;
    const phone = cellText(5511912345678, column('pessoa.telefone')).warning!;
    expect(say('en', phone)).not.toMatch(/912345678/);
    expect(say({ lang: 'en', reveal: true }, phone)).toContain('+5511912345678');
  });
});
