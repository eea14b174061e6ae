import { describe, expect, it } from 'vitest';
import { AREA_KEYS, CATALOGUE, langOf, msg, personal, say } from '../../src/i18n/index.js';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();

describe('the message catalogue (i18n/)', () => {
  it('has the same keys in English and Portuguese', () => {
    expect(Object.keys(CATALOGUE['pt-BR']).sort()).toEqual(Object.keys(CATALOGUE.en).sort());
  });

  it('defines each key in one area only', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [area, keys] of Object.entries(AREA_KEYS)) {
      for (const key of keys) {
        if (seen.has(key)) twice.push(`${key}: ${seen.get(key)} and ${area}`);
        seen.set(key, area);
      }
    }
    expect(twice).toEqual([]);
  });

  it('names each key by its area: every key starts with the area\'s name', () => {
    const strays = Object.entries(AREA_KEYS).flatMap(([area, keys]) => keys.filter((key) => !key.startsWith(`${area}.`)).map((key) => `${area}: ${key}`));
    expect(strays).toEqual([]);
  });

  it.each(Object.keys(CATALOGUE.en))('%s: the same placeholders in both languages, and a Portuguese text of its own', (key) => {
    const en = CATALOGUE.en[key as keyof typeof CATALOGUE.en];
    const pt = CATALOGUE['pt-BR'][key as keyof typeof CATALOGUE.en];
    expect(pt).toBeTruthy();
    expect(placeholders(pt)).toEqual(placeholders(en));
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(say('pt-BR', 'run.accepted', { id: 'C-1' })).toBe('202 aceita: contrato C-1');
    expect(say('en', 'run.accepted')).toBe('202 accepted: contract {id}');
  });

  it('says a message whose values are messages and lists, in the same language', () => {
    const message = msg('run.sameAs', { file: msg('sheet.fileRow', { file: 'a.csv', row: 3 }), message: msg('run.accepted', { id: 'C-1' }) });
    expect(say('en', message)).toBe('the same submission as a.csv, row 3, sent once: 202 accepted: contract C-1');
    expect(say('pt-BR', message)).toBe('a mesma submissão de a.csv, linha 3, enviada uma vez: 202 aceita: contrato C-1');
    const paths = msg('rule.unknownHere', { key: '"uf"', paths: { items: ['pessoa.documento.uf', 'pessoa.endereco.uf'], separator: msg('rule.or') } });
    expect(say('pt-BR', paths)).toContain('pessoa.documento.uf ou pessoa.endereco.uf');
  });

  it.each([
    [undefined, { LANG: 'pt_BR.UTF-8' }, 'pt-BR'],
    [undefined, { LC_ALL: 'en_US.UTF-8', LANG: 'pt_BR.UTF-8' }, 'en'],
    ['pt-BR', { LANG: 'en_US.UTF-8' }, 'pt-BR'],
    ['en', { LANG: 'pt_BR.UTF-8' }, 'en'],
    ['pt-BR', {}, 'pt-BR'],
    [undefined, { LANG: 'en_US.UTF-8' }, 'en'],
    [undefined, { LC_ALL: 'pt_PT.UTF-8', LANG: 'en_US.UTF-8' }, 'pt-BR'],
    [undefined, { LC_ALL: '', LC_MESSAGES: 'C', LANG: 'pt_BR' }, 'en'],
    [undefined, { LC_ALL: '', LANG: 'pt_BR' }, 'pt-BR'],
    [undefined, {}, 'en'],
  ] as const)('--lang %s with %j is %s', (flag, env, lang) => {
    expect(langOf(flag, env)).toBe(lang);
  });
});

describe("a person's data in a message", () => {
  it('is said masked by its kind, in every language, unless the voice reveals it (--reveal)', () => {
    const message = msg('rule.changed', { notes: 'x', from: personal('pixKey', '529.982.247-25'), to: msg('rule.withExample', { reason: 'y', example: personal('text', 'o CPF 52998224725') }) });
    expect(say('en', message)).toBe('x: ***.982.247-** → y, e.g. o CPF ***.982.247-**');
    expect(say({ lang: 'pt-BR', reveal: false }, message)).toBe('x: ***.982.247-** → y, ex.: o CPF ***.982.247-**');
    expect(say({ lang: 'en', reveal: true }, message)).toBe('x: 529.982.247-25 → y, e.g. o CPF 52998224725');
  });
});
