/**
 * The one message catalogue: every text a person reads, in English and Brazilian
 * Portuguese (issue 14). Each area keeps its texts in a file of this folder as a pair of
 * objects, `en` and `ptBR: Record<keyof typeof en, string>`, so the compiler refuses a key
 * missing from one language; every key starts with its area's name (`run.accepted`).
 * test/unit/i18n.test.ts checks that, that no key is defined by two areas and that the
 * placeholders match. A typed catalogue rather than i18next: two languages, no plural rules
 * beyond one/many, nothing loaded at run time, and a wrong key is a compile error.
 * --json keeps English field names and stable codes; only people's text is here.
 *
 * Below ui/, people's text travels as a Message (a key and its values); ui/ says it in the
 * run's language with `say`, the one render function (docs/design.md, "Said once"). A value
 * that holds a person's data is marked where the message is built (`personal`), and `say`
 * masks it unless the run shows personal data (--reveal).
 * Imports nothing of ours but this folder and the masks of redact.ts: errors.ts, domain/,
 * sheets/ and ui/ all use it.
 */
import * as choice from './choice.js';
import * as input from './input.js';
import * as cli from './cli.js';
import * as config from './config.js';
import * as history from './history.js';
import * as rule from './rule.js';
import * as validate from './validate.js';
import * as run from './run.js';
import * as wizard from './wizard.js';
import * as sheet from './sheet.js';
import * as auth from './auth.js';
import * as demo from './demo.js';
import * as watch from './watch.js';
import * as doctor from './doctor.js';
import * as service from './service.js';
import * as store from './store.js';
import * as submit from './submit.js';
import * as tls from './tls.js';
import * as help from './help.js';
import * as file from './file.js';
import * as settle from './settle.js';
import * as events from './events.js';
import * as trigger from './trigger.js';
import * as sandbox from './sandbox.js';
import * as runs from './runs.js';
import { maskPersonal, type PersonalKind } from '../redact.js';

export type Lang = 'pt-BR' | 'en';

/** `--lang` when given, else the first of LC_ALL, LC_MESSAGES, LANG that is set: Portuguese or English. */
export function langOf(flag: string | undefined, env: Record<string, string | undefined>): Lang {
  const locale = flag ?? [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /^pt/i.test(locale) ? 'pt-BR' : 'en';
}

const AREAS = { run, rule, input, cli, validate, history, config, wizard, sheet, choice, auth, demo, watch, doctor, service, store, submit, tls, help, file, settle, events, trigger, sandbox, runs } as const;

/** Every key of every area. */
export type MessageKey = { [Area in keyof typeof AREAS]: keyof (typeof AREAS)[Area]['en'] }[keyof typeof AREAS];

// Joined with Object.assign, not object spread: spreading 1,000 keys took 4 ms of every
// command's start (docs/performance.md); each area's own `ptBR` is where the compiler
// checks that no key is missing.
const en: Record<MessageKey, string> = Object.assign({}, ...Object.values(AREAS).map((area) => area.en));
const ptBR: Record<MessageKey, string> = Object.assign({}, ...Object.values(AREAS).map((area) => area.ptBR));

/** Each area's keys, for the tests that no key is defined twice and that each names its area. */
export const AREA_KEYS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(AREAS).map(([name, area]) => [name, Object.keys(area.en)]),
);

export const CATALOGUE: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { en, 'pt-BR': ptBR };

/** Whether `key` is a key of the catalogue (for keys built from a code, e.g. `history.why_${outcome}`). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/**
 * People's text as it travels below ui/: a key of the catalogue and the values of its
 * `{name}` placeholders. A value may itself be a message (a Pix key's phone problem inside
 * the Pix key's message) or a list of them.
 */
export interface Message {
  readonly key: MessageKey;
  readonly values?: Readonly<Record<string, Value>>;
}
export type Value = string | number | Message | ValueList | PersonalValue | TimeValue;

/**
 * A person's data in a message (a CPF, an account, a Pix key, a phone, an e-mail, or free
 * text from outside that may quote one): said masked by its kind (src/redact.ts) unless
 * the run shows personal data (--reveal).
 */
export interface PersonalValue {
  readonly personal: PersonalKind;
  readonly value: string;
}

/** A value that holds a person's data: `personal('pixKey', value)`. */
export function personal(kind: PersonalKind, value: string): PersonalValue {
  return { personal: kind, value };
}

/**
 * A moment (ISO 8601, as records and --json keep it), said to people in the machine's own
 * zone with its offset: `2026-11-27 01:36:35 -03:00` (issue 24: UTC on a clerk's screen).
 */
export interface TimeValue {
  readonly time: string;
}

/** A moment in a message: `localTime(record.sentAt)`. */
export function localTime(iso: string): TimeValue {
  return { time: iso };
}

/** An ISO moment as people read it: local date and time, and the zone's offset; text that is no moment stays as it is. */
export function formatLocalTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number): string => String(n).padStart(2, '0');
  const offset = -date.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())} ${zone}`;
}

/**
 * Whom a text is said to: the language, and whether a person's data is shown whole
 * (--reveal). The run's Io is one; a bare language masks.
 */
export interface Voice {
  readonly lang: Lang;
  readonly reveal: boolean;
}

/** Values said one after the other, `separator` between them: a line break, `, `, or a message (" or "). */
export interface ValueList {
  readonly items: readonly Value[];
  readonly separator: Value;
}

/** A message: `msg('run.accepted', { id })`. */
export function msg(key: MessageKey, values?: Message['values']): Message {
  return values ? { key, values } : { key };
}

/**
 * The one render function: a message (or a key and its values) in a language, its
 * placeholders filled; a placeholder without a value stays visible; a person's data masked
 * unless `to` is a Voice that reveals it. ui/ calls it with the run's Io (its language and
 * --reveal); below ui/ it is called only for English that is English whatever the run's
 * language (an Error's `.message`, the record of an answer) and by the writers of documents
 * made in the reader's language (the template, the results sheet, the JUnit report).
 */
export function say(to: Lang | Voice, message: Message | MessageKey, values?: Message['values']): string {
  const { lang, reveal } = typeof to === 'string' ? { lang: to, reveal: false } : to;
  const { key, values: given } = typeof message === 'string' ? { key: message, values } : message;
  const text = (value: Value): string => {
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    if ('items' in value) return value.items.map(text).join(text(value.separator));
    if ('personal' in value) return reveal ? value.value : maskPersonal(value.personal, value.value);
    if ('time' in value) return formatLocalTime(value.time);
    return say(to, value);
  };
  return CATALOGUE[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = given?.[name];
    return value === undefined ? whole : text(value);
  });
}
