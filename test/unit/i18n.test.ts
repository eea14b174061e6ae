import { describe, expect, it } from 'vitest';
import { AREA_KEYS, CATALOGUE, langOf, tr } from '../../src/i18n/index.js';

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

  it.each(Object.keys(CATALOGUE.en))('%s: the same placeholders in both languages, and a Portuguese text of its own', (key) => {
    const en = CATALOGUE.en[key as keyof typeof CATALOGUE.en];
    const pt = CATALOGUE['pt-BR'][key as keyof typeof CATALOGUE.en];
    expect(pt).toBeTruthy();
    expect(placeholders(pt)).toEqual(placeholders(en));
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(tr('pt-BR', 'accepted', { id: 'C-1' })).toBe('202 aceita: contrato C-1');
    expect(tr('en', 'accepted')).toBe('202 accepted: contract {id}');
  });

  it.each([
    [undefined, { LANG: 'pt_BR.UTF-8' }, 'pt-BR'],
    [undefined, { LC_ALL: 'en_US.UTF-8', LANG: 'pt_BR.UTF-8' }, 'en'],
    ['pt-BR', { LANG: 'en_US.UTF-8' }, 'pt-BR'],
    ['en', { LANG: 'pt_BR.UTF-8' }, 'en'],
    [undefined, {}, 'en'],
  ] as const)('--lang %s with %j is %s', (flag, env, lang) => {
    expect(langOf(flag, env)).toBe(lang);
  });
});
