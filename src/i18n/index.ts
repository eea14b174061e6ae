/**
 * The one message catalogue: every text a person reads, in English and Brazilian
 * Portuguese (issue 14). Each area keeps its texts in a file of this folder as a pair of
 * objects, `en` and `ptBR: Record<keyof typeof en, string>`, so the compiler refuses a key
 * missing from one language; this file joins them and `tr` fills `{name}` placeholders.
 * test/unit/i18n.test.ts checks that no key is defined by two areas and that the
 * placeholders match. A typed catalogue rather than i18next: two languages, no plural rules
 * beyond one/many, nothing loaded at run time, and a wrong key is a compile error.
 * --json keeps English field names and stable codes; only people's text is here.
 * Imports nothing of ours but this folder: domain/, sheets/, ui/ and flows/ all use it.
 */
import * as input from './input.js';
import * as rules from './rules.js';
import * as run from './run.js';

export type Lang = 'pt-BR' | 'en';

/** `--lang` when given, else the first of LC_ALL, LC_MESSAGES, LANG that is set: Portuguese or English. */
export function langOf(flag: string | undefined, env: Record<string, string | undefined>): Lang {
  const locale = flag ?? [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /^pt/i.test(locale) ? 'pt-BR' : 'en';
}

const AREAS = { run, rules, input } as const;

const en = { ...run.en, ...rules.en, ...input.en };
const ptBR: Record<MessageKey, string> = { ...run.ptBR, ...rules.ptBR, ...input.ptBR };

export type MessageKey = keyof typeof en;

/** Each area's keys, for the test that no key is defined twice. */
export const AREA_KEYS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(AREAS).map(([name, area]) => [name, Object.keys(area.en)]),
);

export const CATALOGUE: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { en, 'pt-BR': ptBR };

/** A text of the catalogue with its `{name}` placeholders filled. */
export function tr(lang: Lang, key: MessageKey, values: Record<string, string | number> = {}): string {
  return CATALOGUE[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));
}

/**
 * A text to say later, in a language not known yet: a key and its values, where a value
 * may itself be such a text (a Pix key's phone problem inside the Pix key's message).
 */
export interface Said {
  key: MessageKey;
  values?: Record<string, string | number | Said>;
}

/** A Said in `lang`. */
export function say(lang: Lang, said: Said): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(said.values ?? {})) values[name] = typeof value === 'object' ? say(lang, value) : value;
  return tr(lang, said.key, values);
}

/** "submission" or "submissions" in `lang`, for `n`. */
export function submissions(lang: Lang, n: number): string {
  return tr(lang, n === 1 ? 'submissionOne' : 'submissionMany');
}

/** An outcome of the --json contract, as people read it (for `n` of them). */
export function outcomeName(lang: Lang, outcome: string, n = 1): string {
  return tr(lang, `${n === 1 ? 'outcome' : 'outcomes'}_${outcome}` as MessageKey);
}
