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
import * as choices from './choices.js';
import * as input from './input.js';
import * as cli from './cli.js';
import * as config from './config.js';
import * as history from './history.js';
import * as rules from './rules.js';
import * as validate from './validate.js';
import * as run from './run.js';
import * as wizard from './wizard.js';
import * as sheets from './sheets.js';
import * as auth from './auth.js';
import * as demo from './demo.js';
import * as watch from './watch.js';
import * as doctor from './doctor.js';
import * as service from './service.js';
import * as store from './store.js';
import * as submit from './submit.js';
import * as tls from './tls.js';
import * as help from './help.js';

export type Lang = 'pt-BR' | 'en';

/** `--lang` when given, else the first of LC_ALL, LC_MESSAGES, LANG that is set: Portuguese or English. */
export function langOf(flag: string | undefined, env: Record<string, string | undefined>): Lang {
  const locale = flag ?? [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /^pt/i.test(locale) ? 'pt-BR' : 'en';
}

const AREAS = { run, rules, input, cli, validate, history, config, wizard, sheets, choices, auth, demo, watch, doctor, service, store, submit, tls, help } as const;

/** Every key of every area. */
export type MessageKey = { [Area in keyof typeof AREAS]: keyof (typeof AREAS)[Area]['en'] }[keyof typeof AREAS];

// Joined with Object.assign, not object spread: spreading 1,000 keys took 4 ms of every
// command's start (docs/performance.md); each area's own `ptBR` is where the compiler
// checks that no key is missing.
const en: Record<MessageKey, string> = Object.assign({}, ...Object.values(AREAS).map((area) => area.en));
const ptBR: Record<MessageKey, string> = Object.assign({}, ...Object.values(AREAS).map((area) => area.ptBR));

/** Each area's keys, for the test that no key is defined twice. */
export const AREA_KEYS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(AREAS).map(([name, area]) => [name, Object.keys(area.en)]),
);

export const CATALOGUE: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { en, 'pt-BR': ptBR };

/** The key (of those starting with `prefix`) of an English text without placeholders: a flag parser's message inside commander's, a description of the help. */
export function keyOfEnglish(english: string, prefix = ''): MessageKey | undefined {
  return keysByEnglish().get(english)?.find((key) => key.startsWith(prefix));
}

let byEnglish: Map<string, MessageKey[]> | undefined;

/** The keys of each English text, built on first use: the help looks up ~20 texts at every start in Portuguese. */
function keysByEnglish(): Map<string, MessageKey[]> {
  if (byEnglish) return byEnglish;
  byEnglish = new Map();
  for (const key of Object.keys(en) as MessageKey[]) {
    const keys = byEnglish.get(en[key]);
    if (keys) keys.push(key);
    else byEnglish.set(en[key], [key]);
  }
  return byEnglish;
}

/** Whether `key` is a key of the catalogue (for keys built from a code, e.g. `history.why_${outcome}`). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/** A text of the catalogue with its `{name}` placeholders filled. */
export function tr(lang: Lang, key: MessageKey, values: Readonly<Record<string, Value>> = {}): string {
  return CATALOGUE[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : valueText(lang, value);
  });
}

/**
 * A text to say later, in a language not known yet: a key and its values, where a value
 * may itself be such a text (a Pix key's phone problem inside the Pix key's message; the
 * reason inside "invalid value") or a list of them (one a line).
 */
export interface Said {
  readonly key: MessageKey;
  readonly values?: Readonly<Record<string, Value>>;
}
export type Value = string | number | Said | Text | readonly (Said | Text)[];

/**
 * A Said that carries its English rendering too: what errors below ui/ are built from
 * (errors.ts `Text`, whose `message` stays English for logs, the store and tests); the
 * error boundary says it in the run's language.
 */
export interface Text {
  readonly key: string;
  readonly values?: Readonly<Record<string, unknown>>;
  readonly en: string;
}

export function text(key: MessageKey, values?: Readonly<Record<string, Value>>): Text & Said {
  return { key, ...(values ? { values } : {}), en: tr('en', key, values) };
}

/** A Said (or Text) in `lang`; a plain string is already said. */
export function say(lang: Lang, said: string | Said | Text): string {
  if (typeof said === 'string') return said;
  if (!isMessageKey(said.key)) return 'en' in said ? said.en : said.key;
  // A Text's values were built by text() from Values; errors.ts only keeps them.
  return tr(lang, said.key, said.values as Readonly<Record<string, Value>> | undefined);
}

function valueText(lang: Lang, value: Value): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return (value as readonly (Said | Text)[]).map((item) => say(lang, item)).join('\n');
  return say(lang, value as Said | Text);
}

/** "submission" or "submissions" in `lang`, for `n`. */
export function submissions(lang: Lang, n: number): string {
  return tr(lang, n === 1 ? 'submissionOne' : 'submissionMany');
}

/** An outcome of the --json contract, as people read it (for `n` of them). */
export function outcomeName(lang: Lang, outcome: string, n = 1): string {
  return tr(lang, `${n === 1 ? 'outcome' : 'outcomes'}_${outcome}` as MessageKey);
}

/** The label of a coded value (estado civil, document or account type) in `lang`; the value itself when it has none. */
export function choiceLabel(lang: Lang, value: string): string {
  const key = `choice.${value}`;
  return key in en ? tr(lang, key as MessageKey) : value;
}
