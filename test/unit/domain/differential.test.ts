/**
 * Differential tests: our hand-written rules against two independent libraries on tens of
 * thousands of seeded pseudo-random inputs (docs/brazilian-data.md section 2 recommends
 * cpf-cnpj-validator as the cross-check). Deterministic: same seed, same corpus.
 */
import { isValidCnh as buIsValidCnh } from '@brazilian-utils/brazilian-utils/is-valid-cnh';
import { isValidCpf as buIsValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { isValidMobilePhone as buIsValidMobilePhone } from '@brazilian-utils/brazilian-utils/is-valid-mobile-phone';
import { cpf as ccvCpf } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { DDDS, checkPhone, isValidCnh, isValidCpf } from '../../../src/domain/brazil.js';

/** mulberry32: a tiny seeded PRNG, enough for test corpora. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const digitsOf = (random: () => number, n: number): number[] => Array.from({ length: n }, () => Math.floor(random() * 10));

// Generators written from docs/brazilian-data.md section 1, independently of src/domain/brazil.ts.
const dv = (s: number): number => (s % 11 < 2 ? 0 : 11 - (s % 11));

function cpfWithCheckDigits(base: number[]): string {
  const d1 = dv(base.reduce((sum, d, i) => sum + d * (10 - i), 0));
  const withD1 = [...base, d1];
  const d2 = dv(withD1.reduce((sum, d, i) => sum + d * (11 - i), 0));
  return [...withD1, d2].join('');
}

function cnhWithCheckDigits(base: number[]): string {
  const r = base.reduce((sum, d, i) => sum + d * (9 - i), 0) % 11;
  const [d1, decrement] = r >= 10 ? [0, 2] : [r, 0];
  let d2 = (((base.reduce((sum, d, i) => sum + d * (i + 1), 0) % 11) - decrement) % 11 + 11) % 11;
  if (d2 === 10) d2 = 0;
  return [...base, d1, d2].join('');
}

/** Random strings, valid ones, valid ones with one digit changed, and the repeated sequences. */
function corpus(seed: number, size: number, valid: (base: number[]) => string): string[] {
  const random = prng(seed);
  const values: string[] = [];
  for (let i = 0; i < size; i++) {
    if (i % 2 === 0) {
      values.push(digitsOf(random, 11).join(''));
      continue;
    }
    const good = valid(digitsOf(random, 9));
    if (i % 6 !== 1) {
      values.push(good);
      continue;
    }
    const at = Math.floor(random() * 11);
    const bumped = (Number(good[at]) + 1 + Math.floor(random() * 9)) % 10;
    values.push(good.slice(0, at) + String(bumped) + good.slice(at + 1));
  }
  for (let d = 0; d <= 9; d++) values.push(String(d).repeat(11));
  return values;
}

function mismatches(values: readonly string[], ours: (v: string) => boolean, theirs: (v: string) => boolean): string[] {
  return values.filter((v) => ours(v) !== theirs(v));
}

describe('CPF', () => {
  const values = [...corpus(0xc0ffee, 20_000, cpfWithCheckDigits), '12345678909', '52998224725'];

  it('the corpus is mostly valid on one half and has near misses', () => {
    const valid = values.filter(isValidCpf).length;
    expect(valid).toBeGreaterThan(6_000);
    expect(valid).toBeLessThan(values.length - 6_000);
  });

  it('agrees with @brazilian-utils isValidCpf on every value', () =>
    expect(mismatches(values, isValidCpf, buIsValidCpf)).toEqual([]));

  // cpf-cnpj-validator blacklists 12345678909, whose check digits are right and which the
  // Receita does not reserve (brazilian-utils documents it as valid): the one known difference.
  it('agrees with cpf-cnpj-validator cpf.isValid(v, true) except on its blacklisted 12345678909', () =>
    expect([...new Set(mismatches(values, isValidCpf, (v) => ccvCpf.isValid(v, true)))]).toEqual(['12345678909']));

  // Both libraries accept masks; we take bare digits only (the mask is normalised, with a warning).
  // Strict cpf-cnpj-validator takes only the canonical mask.
  it.each([
    ['529.982.247-25', true, true],
    ['529982247-25', true, false],
  ])('mask %s: brazilian-utils %s, cpf-cnpj-validator %s, ours false', (masked, bu, ccv) => {
    expect([buIsValidCpf(masked), ccvCpf.isValid(masked, true), isValidCpf(masked)]).toEqual([bu, ccv, false]);
  });
});

describe('CNH', () => {
  const values = [...corpus(0xbadcafe, 10_000, cnhWithCheckDigits), '00000000119'];

  it('the corpus is mostly valid on one half and exercises the decrement branch', () => {
    expect(values.filter(isValidCnh).length).toBeGreaterThan(3_000);
    const decrement = values.filter((v) => isValidCnh(v) && [...v.slice(0, 9)].reduce((s, d, i) => s + Number(d) * (9 - i), 0) % 11 === 10);
    expect(decrement.length).toBeGreaterThan(100);
  });

  it('agrees with @brazilian-utils isValidCnh on every value', () =>
    expect(mismatches(values, isValidCnh, buIsValidCnh)).toEqual([]));
});

describe('mobile phones', () => {
  // brazilian-utils `version: 2` (Resolução 749/2022) takes 7, 8 or 9 as the first digit of an
  // 11-digit mobile; we take only 9 (the Pix manual's mobile, docs/brazilian-data.md section 1).
  // So we compare on numbers whose first subscriber digit is not 7 or 8, where both rules
  // should reduce to "the DDD exists and the number starts with 9".
  const random = prng(0x5eed);
  const ddds = [...DDDS];
  const values: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    const ddd = i % 2 === 0 ? String(ddds[Math.floor(random() * ddds.length)]) : String(10 + Math.floor(random() * 90));
    let first = i % 3 === 0 ? 9 : Math.floor(random() * 10);
    if (first === 7 || first === 8) first = 9;
    values.push(`+55${ddd}${first}${digitsOf(random, 8).join('')}`);
  }
  const ours = (v: string): boolean => {
    const check = checkPhone(v);
    return check.ok && check.kind === 'mobile';
  };

  it('the corpus has both accepted and refused numbers', () => {
    const accepted = values.filter(ours).length;
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(values.length - 2_000);
  });

  it('agrees with @brazilian-utils isValidMobilePhone(v, {version: 2}) on every value', () =>
    expect(mismatches(values, ours, (v) => buIsValidMobilePhone(v, { version: 2 }))).toEqual([]));

  it.each(['+5511787654321', '+5511887654321'])('%s: 7/8-prefixed mobiles are where the rules part ways', (v) =>
    expect([ours(v), buIsValidMobilePhone(v, { version: 2 })]).toEqual([false, true]));
});
