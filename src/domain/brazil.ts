/**
 * Brazilian data rules, pure and dependency-free. Sources are in
 * docs/brazilian-data.md (Receita Federal, IBGE, Anatel, Correios, DICT). A refusal is a
 * key of the message catalogue (i18n/rule.ts), said in the reader's language by the caller.
 */
import { type Message, msg, personal } from '../i18n/index.js';

// Patterns as constants, not literals in the functions: a regex literal is a new RegExp
// object each time it is evaluated, and these run for every file of a batch.
const REPEATED_DIGIT = /^(\d)\1*$/;
export const ELEVEN_DIGITS = /^\d{11}$/;
const ONLY_DIGITS = /^\d+$/;
const FOURTEEN_DIGITS = /^\d{14}$/;
/** `YYYY-MM-DD` by shape only; isRealIsoDate also checks the calendar. */
export const ISO_DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const PLUS_DIGITS = /^\+\d+$/;
const LANDLINE_START = /^[2-5]/;
const DOTTED_DOMAIN = /@[^@]+\.[^@]+$/;
const ALL_ZERO_KEY = /^[0-]+$/;

/** The 27 federative units (IBGE). */
export const UFS = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
] as const;
export type Uf = (typeof UFS)[number];

export const UF_NAMES: Readonly<Record<Uf, string>> = {
  AC: 'Acre', AL: 'Alagoas', AP: 'Amapá', AM: 'Amazonas', BA: 'Bahia', CE: 'Ceará',
  DF: 'Distrito Federal', ES: 'Espírito Santo', GO: 'Goiás', MA: 'Maranhão',
  MT: 'Mato Grosso', MS: 'Mato Grosso do Sul', MG: 'Minas Gerais', PA: 'Pará',
  PB: 'Paraíba', PR: 'Paraná', PE: 'Pernambuco', PI: 'Piauí', RJ: 'Rio de Janeiro',
  RN: 'Rio Grande do Norte', RS: 'Rio Grande do Sul', RO: 'Rondônia', RR: 'Roraima',
  SC: 'Santa Catarina', SP: 'São Paulo', SE: 'Sergipe', TO: 'Tocantins',
};

const UF_SET: ReadonlySet<string> = new Set(UFS);

export function isUf(value: string): value is Uf {
  return UF_SET.has(value);
}

/** The 67 area codes in use (Anatel, Resolução 749/2022). */
export const DDDS: ReadonlySet<number> = new Set([
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38,
  41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69,
  71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97,
  98, 99,
]);

export function isDdd(value: string): boolean {
  return value.length === 2 && DDDS.has(Number(value));
}

function checkDigit(sum: number): number {
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

function isRepeated(digits: string): boolean {
  return REPEATED_DIGIT.test(digits);
}

/** CPF: 11 digits, two mod-11 check digits; the ten repeated sequences are reserved. */
export function isValidCpf(value: string): boolean {
  if (!ELEVEN_DIGITS.test(value) || isRepeated(value)) return false;
  let sum1 = 0;
  let sum2 = 0;
  for (let i = 0; i < 9; i++) {
    const d = value.charCodeAt(i) - 48;
    sum1 += d * (10 - i);
    sum2 += d * (11 - i);
  }
  const dv1 = checkDigit(sum1);
  sum2 += dv1 * 2;
  const dv2 = checkDigit(sum2);
  return value.charCodeAt(9) - 48 === dv1 && value.charCodeAt(10) - 48 === dv2;
}

/**
 * CNH registration number: 11 digits, two check digits by the de-facto algorithm
 * (CONTRAN 886/2021 publishes no weights; every public library uses this one).
 */
export function isValidCnh(value: string): boolean {
  if (!ELEVEN_DIGITS.test(value) || isRepeated(value)) return false;
  const d = Array.from(value, (c) => c.charCodeAt(0) - 48);
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (d[i] ?? 0) * (9 - i);
  let dv1 = sum % 11;
  let decrement = 0;
  if (dv1 >= 10) {
    dv1 = 0;
    decrement = 2;
  }
  sum = 0;
  for (let i = 0; i < 9; i++) sum += (d[i] ?? 0) * (i + 1);
  let dv2 = (((sum % 11) - decrement) % 11 + 11) % 11;
  if (dv2 >= 10) dv2 = 0;
  return d[9] === dv1 && d[10] === dv2;
}

/** First CEP digit to the states it covers (Correios); used for a warning only. */
const CEP_REGIONS: ReadonlyArray<readonly Uf[]> = [
  ['SP'], ['SP'], ['RJ', 'ES'], ['MG'], ['BA', 'SE'], ['PE', 'AL', 'PB', 'RN'],
  ['CE', 'PI', 'MA', 'PA', 'AP', 'AM', 'RR', 'AC'], ['DF', 'GO', 'TO', 'MT', 'MS', 'RO'],
  ['PR', 'SC'], ['RS'],
];

/** True when the CEP's first digit belongs to the state's postal region. */
export function cepMatchesUf(cep: string, uf: Uf): boolean {
  const region = CEP_REGIONS[cep.charCodeAt(0) - 48];
  return region === undefined || region.includes(uf);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digitAt(text: string, at: number): number {
  return text.charCodeAt(at) - 48;
}

/** A real calendar date in ISO form `YYYY-MM-DD` (proleptic Gregorian, as Date). */
export function isRealIsoDate(value: string): boolean {
  if (!ISO_DATE_SHAPE.test(value)) return false;
  // Arithmetic, not a Date: this runs on every file of a batch.
  const year = digitAt(value, 0) * 1000 + digitAt(value, 1) * 100 + digitAt(value, 2) * 10 + digitAt(value, 3);
  const month = digitAt(value, 5) * 10 + digitAt(value, 6);
  const day = digitAt(value, 8) * 10 + digitAt(value, 9);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/** The operator's calendar date of `now` as `YYYY-MM-DD` (local time zone). */
export function localIsoDate(now: Date): string {
  const y = String(now.getFullYear()).padStart(4, '0');
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export type PhoneCheck =
  | { ok: true; kind: 'mobile' | 'landline' | 'foreign' }
  | { ok: false; reason: Message };

/**
 * A phone in international form `+<digits>`. For +55 the area code must exist and the
 * number must be a mobile (9 digits starting with 9) or a landline (8 digits, 2-5).
 */
export function checkPhone(value: string): PhoneCheck {
  if (!PLUS_DIGITS.test(value)) {
    // Digits alone: a national number normalisation could not complete (issue 14's trial:
    // "51 9999-999" was told to start with "+"). Say what is wrong with it instead.
    if (ONLY_DIGITS.test(value)) {
      if ((value.length === 10 || value.length === 11) && !isDdd(value.slice(0, 2))) {
        return { ok: false, reason: msg('rule.phone.ddd', { ddd: value.slice(0, 2) }) };
      }
      return { ok: false, reason: msg('rule.phone.national', { n: value.length }) };
    }
    return { ok: false, reason: msg('rule.phone.plusDigits') };
  }
  const digits = value.slice(1);
  if (digits.length > 15) return { ok: false, reason: msg('rule.phone.tooLong') };
  if (digits[0] === '0') return { ok: false, reason: msg('rule.phone.countryZero') };
  if (!digits.startsWith('55')) {
    return digits.length >= 8 ? { ok: true, kind: 'foreign' } : { ok: false, reason: msg('rule.phone.tooShort') };
  }
  const national = digits.slice(2);
  if (national.startsWith('0')) {
    return { ok: false, reason: msg('rule.phone.trunkZero') };
  }
  if (national.length !== 10 && national.length !== 11) {
    return { ok: false, reason: msg('rule.phone.shape') };
  }
  const ddd = national.slice(0, 2);
  if (!isDdd(ddd)) return { ok: false, reason: msg('rule.phone.ddd', { ddd }) };
  const subscriber = national.slice(2);
  if (subscriber.length === 9) {
    return subscriber[0] === '9'
      ? { ok: true, kind: 'mobile' }
      : { ok: false, reason: msg('rule.phone.mobile') };
  }
  return LANDLINE_START.test(subscriber)
    ? { ok: true, kind: 'landline' }
    : { ok: false, reason: msg('rule.phone.landline') };
}

/** Pix key types the service accepts (docs/service.md 2.5), plus the ones we recognise to refuse. */
export type PixKeyType = 'email' | 'phone' | 'cpf' | 'evp' | 'cnpj' | 'unknown';

const EVP_ANY_CASE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// DICT v1.8.0 e-mail rule (without the % character since v1.7.2), lower case only.
const PIX_EMAIL = /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Classify a Pix key by its shape (DICT), before any rule is applied. */
export function detectPixKeyType(value: string): PixKeyType {
  if (value.includes('@')) return 'email';
  if (value.startsWith('+')) return 'phone';
  if (EVP_ANY_CASE.test(value)) return 'evp';
  if (ELEVEN_DIGITS.test(value)) return 'cpf';
  if (FOURTEEN_DIGITS.test(value)) return 'cnpj';
  return 'unknown';
}

export type PixKeyCheck = { ok: true; type: 'email' | 'phone' | 'cpf' | 'evp' } | { ok: false; reason: Message };

/** The DICT rule for each key type the service accepts: e-mail, phone, CPF, random key. */
export function checkPixKey(value: string): PixKeyCheck {
  if (value.length > 77) return { ok: false, reason: msg('rule.pix.tooLong') };
  switch (detectPixKeyType(value)) {
    case 'email':
      if (value !== value.toLowerCase()) return { ok: false, reason: msg('rule.pix.emailCase') };
      if (value.includes('%')) return { ok: false, reason: msg('rule.pix.emailPercent') };
      return PIX_EMAIL.test(value) && DOTTED_DOMAIN.test(value)
        ? { ok: true, type: 'email' }
        : { ok: false, reason: msg('rule.pix.email') };
    case 'phone': {
      const phone = checkPhone(value);
      if (!phone.ok) return { ok: false, reason: msg('rule.pix.phone', { reason: phone.reason }) };
      if (phone.kind !== 'mobile') {
        return { ok: false, reason: msg('rule.pix.phoneMobile') };
      }
      return { ok: true, type: 'phone' };
    }
    case 'evp':
      if (!EVP.test(value)) return { ok: false, reason: msg('rule.pix.randomCase') };
      if (ALL_ZERO_KEY.test(value)) return { ok: false, reason: msg('rule.pix.randomZero') };
      return { ok: true, type: 'evp' };
    case 'cpf': {
      if (isValidCpf(value)) return { ok: true, type: 'cpf' };
      // DICT reads 11 digits as a CPF; a mobile number needs its +55 to be a phone key.
      const mobile = isDdd(value.slice(0, 2)) && value[2] === '9';
      return { ok: false, reason: mobile ? msg('rule.pix.cpfOrPhone', { value: personal('phone', value) }) : msg('rule.pix.cpf') };
    }
    case 'cnpj':
      return { ok: false, reason: msg('rule.pix.cnpj') };
    case 'unknown':
      return { ok: false, reason: msg('rule.pix.unknown') };
  }
}
