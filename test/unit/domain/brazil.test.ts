import { describe, expect, it } from 'vitest';
import { say } from '../../../src/i18n/index.js';
import {
  DDDS,
  UFS,
  cepMatchesUf,
  checkPhone,
  checkPixKey,
  detectPixKeyType,
  isDdd,
  isRealIsoDate,
  isUf,
  isValidCnh,
  isValidCpf,
  localIsoDate,
} from '../../../src/domain/brazil.js';

describe('isValidCpf', () => {
  it.each([
    ['52998224725', true], // docs/brazilian-data.md sample
    ['12345678909', true], // brazilian-utils doc example
    ['29537995593', true], // cpf-cnpj-validator doc example
    ['28001238938', true], // e-Financeira worked example 280012389-38
    ['52998224726', false], // last check digit off by one
    ['52998224715', false], // first check digit off by one
    ['5299822472', false], // 10 digits
    ['529982247250', false], // 12 digits
    ['529.982.247-25', false], // masks are normalised upstream, never accepted here
    ['529982247-25', false],
    [' 52998224725', false],
    ['52998224725\u200b', false],
    ['', false],
    ['5299822472a', false],
  ])('%j → %s', (value, expected) => expect(isValidCpf(value)).toBe(expected));

  it.each(Array.from({ length: 10 }, (_, d) => String(d).repeat(11)))('repeated %s → false', (value) =>
    expect(isValidCpf(value)).toBe(false));
});

describe('isValidCnh', () => {
  it.each([
    ['00000000119', true], // docs/brazilian-data.md sample
    ['00000000118', false], // bad second digit
    ['00000000129', false], // bad first digit
    ['11111111111', false],
    ['00000000000', false],
    ['0000000011', false],
    ['000000001190', false],
    ['000000001-19', false],
    ['SP123456789', false], // a RENACH, not the registration number
  ])('%j → %s', (value, expected) => expect(isValidCnh(value)).toBe(expected));
});

describe('checkPhone', () => {
  it.each([
    ['+5511987654321', 'mobile'],
    ['+5561987654321', 'mobile'],
    ['+551132345678', 'landline'],
    ['+558132345678', 'landline'],
    ['+14155552671', 'foreign'],
    ['+12345678', 'foreign'], // 8 digits: the shortest we take
  ])('%s → ok %s', (value, kind) => expect(checkPhone(value)).toEqual({ ok: true, kind }));

  it.each([
    ['+55011987654321', /trunk 0/],
    ['+5520987654321', /area code 20/],
    ['+5510987654321', /area code 10/],
    ['+551187654321', /8-digit number must be a landline/], // old 8-digit mobile
    ['+551162345678', /8-digit number must be a landline/],
    ['+5511887654321', /9-digit number must be a mobile/],
    ['+1234567890123456', /more than 15 digits/],
    ['+5511', /\+55, a 2-digit area code/],
    ['+551198765432100', /\+55, a 2-digit area code/], // 15 digits, too long for Brazil
    ['+1234567', /too short/],
    ['+0123456789', /cannot start with 0/],
    ['5511987654321', /has 13 digits: .*\+ and the country code/],
    ['519999999', /has 9 digits: a Brazilian phone is the 2-digit area code/], // a digit short, as typed "51 9999-999"
    ['00912345678', /area code 00 does not exist/],
    ['+55 11 98765-4321', /"\+" followed by digits/],
    ['+5511987654321 ', /"\+" followed by digits/],
    ['', /"\+" followed by digits/],
  ])('%j → refused (%s)', (value, reason) => {
    const check = checkPhone(value);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(say('en', check.reason)).toMatch(reason);
  });
});

const localPart = (length: number) => 'a'.repeat(length);

describe('detectPixKeyType', () => {
  it.each([
    ['maria@example.com', 'email'],
    ['Fulano@Example.com', 'email'],
    ['a@b', 'email'],
    ['+5511987654321', 'phone'],
    ['+55 (11) 98765-4321', 'phone'],
    ['+14155552671', 'phone'],
    ['123e4567-e89b-12d3-a456-426614174000', 'evp'],
    ['123E4567-E89B-12D3-A456-426614174000', 'evp'],
    ['52998224725', 'cpf'],
    ['11987654321', 'cpf'], // DICT: a bare 11-digit value is a CPF, never a phone
    ['11222333000181', 'cnpj'],
    ['123e4567e89b12d3a456426614174000', 'unknown'],
    ['{123e4567-e89b-12d3-a456-426614174000}', 'unknown'],
    ['529.982.247-25', 'unknown'],
    ['', 'unknown'],
  ])('%j → %s', (value, type) => expect(detectPixKeyType(value)).toBe(type));
});

describe('checkPixKey', () => {
  it.each([
    ['maria@example.com', 'email'],
    ['maria.silva+pix@sub.example.com.br', 'email'],
    [`${localPart(65)}@example.com`, 'email'], // exactly 77 characters
    ['+5511987654321', 'phone'],
    ['52998224725', 'cpf'],
    ['123e4567-e89b-12d3-a456-426614174000', 'evp'], // version nibble 1, as in the DICT example
    ['f47ac10b-58cc-4372-a567-0e02b2c3d479', 'evp'],
  ])('%s → ok %s', (value, type) => expect(checkPixKey(value)).toEqual({ ok: true, type }));

  it.each([
    ['Fulano@Example.com', /lower case/],
    [`${localPart(66)}@example.com`, /77 characters/],
    ['user%x@ex.com', /"%"/],
    ['a@b', /not a valid e-mail key/],
    ['a@@b.com', /not a valid e-mail key/],
    ['+55 (11) 98765-4321', /phone key must be "\+"/],
    ['+551187654321', /8-digit number must be a landline/], // old 8-digit mobile
    ['+551132345678', /Brazilian mobile/],
    ['+5520987654321', /area code 20/],
    ['+14155552671', /Brazilian mobile/],
    ['+5511987654321 ', /phone key/],
    ['123E4567-E89B-12D3-A456-426614174000', /lower case/],
    ['123e4567e89b12d3a456426614174000', /not a Pix key/],
    ['{123e4567-e89b-12d3-a456-426614174000}', /not a Pix key/],
    ['00000000-0000-0000-0000-000000000000', /all-zero/],
    ['52998224726', /not a valid CPF/],
    ['00000000000', /not a valid CPF/],
    ['529.982.247-25', /not a Pix key/],
    ['11222333000181', /CNPJ/],
    ['', /not a Pix key/],
  ])('%j → refused (%s)', (value, reason) => {
    const check = checkPixKey(value);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(say('en', check.reason)).toMatch(reason);
  });
});

describe('isRealIsoDate', () => {
  it.each([
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['2024-12-31', true],
    ['2015-03-21', true],
    ['2023-02-29', false],
    ['1900-02-29', false],
    ['2024-02-30', false],
    ['2024-04-31', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-01-00', false],
    ['2024-01-32', false],
    ['31/12/2020', false],
    ['2024-2-3', false],
    ['2024-02-29T00:00:00Z', false],
    ['', false],
  ])('%j → %s', (value, expected) => expect(isRealIsoDate(value)).toBe(expected));

  it('agrees with Date on every day, month 0 to 13 and day 0 to 32, of years around every leap rule', () => {
    const byDate = (value: string): boolean => {
      const [y, m, d] = value.split('-').map(Number) as [number, number, number];
      if (m < 1 || m > 12 || d < 1) return false;
      const date = new Date(0);
      date.setUTCFullYear(y, m - 1, d);
      return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
    };
    const pad = (n: number, width: number): string => String(n).padStart(width, '0');
    const differ: string[] = [];
    for (const year of [0, 1, 4, 100, 400, 1600, 1700, 1899, 1900, 1999, 2000, 2001, 2023, 2024, 2100, 2400, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const value = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          if (isRealIsoDate(value) !== byDate(value)) differ.push(value);
        }
      }
    }
    expect(differ).toEqual([]);
  });
});

describe('localIsoDate', () => {
  it.each([
    [new Date(2024, 0, 5, 0, 0, 0), '2024-01-05'],
    [new Date(2024, 11, 31, 23, 59, 59), '2024-12-31'],
  ])('%s → %s', (now, expected) => expect(localIsoDate(now)).toBe(expected));
});

describe('cepMatchesUf', () => {
  it.each([
    ['01310100', 'SP', true],
    ['13010000', 'SP', true],
    ['20040002', 'RJ', true],
    ['29010000', 'ES', true],
    ['30160011', 'MG', true],
    ['40010000', 'BA', true],
    ['50030170', 'PE', true],
    ['60010000', 'CE', true],
    ['70040010', 'DF', true],
    ['80010000', 'PR', true],
    ['88010000', 'SC', true],
    ['90010000', 'RS', true],
    ['01310100', 'RJ', false],
    ['90010000', 'SC', false],
    ['50030170', 'SP', false],
  ] as const)('%s in %s → %s', (cep, uf, expected) => expect(cepMatchesUf(cep, uf)).toBe(expected));
});

describe('isUf', () => {
  it('has the 27 IBGE codes', () => expect(new Set(UFS).size).toBe(27));
  it.each([...UFS])('%s → true', (uf) => expect(isUf(uf)).toBe(true));
  it.each(['sp', ' SP', 'SP ', 'S.P.', 'BR', 'XX', '', 'SPP', 'toString', '__proto__'])('%j → false', (value) =>
    expect(isUf(value)).toBe(false));
});

describe('isDdd', () => {
  // Anatel list as written in docs/brazilian-data.md, typed independently of the source.
  const ranges: Array<[number, number]> = [
    [11, 19], [21, 22], [24, 24], [27, 28], [31, 35], [37, 38], [41, 49], [51, 51], [53, 55],
    [61, 69], [71, 71], [73, 75], [77, 77], [79, 79], [81, 89], [91, 99],
  ];
  const inUse = ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i)));

  it('lists 67 codes', () => {
    expect(inUse).toHaveLength(67);
    expect(DDDS.size).toBe(67);
  });
  it.each(inUse)('%s → true', (ddd) => expect(isDdd(ddd)).toBe(true));
  it('every other 2-digit code → false', () => {
    const others = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0')).filter((d) => !inUse.includes(d));
    expect(others).toHaveLength(33);
    expect(others.filter((d) => isDdd(d))).toEqual([]);
  });
  it.each(['1', '011', ' 11', '11 ', '1a', '', '+1', '20', '10', '23', '52', '70', '80', '90'])('%j → false', (value) =>
    expect(isDdd(value)).toBe(false));
});
