import { bankRows } from './banks-data.js';

const byCode: ReadonlyMap<string, string> = new Map(bankRows);

/** The institution's name for a 3-digit COMPE code, when the table knows it. */
export function bankName(compe: string): string | undefined {
  return byCode.get(compe);
}

/** Lower case, without accents: what a search by name compares ("itau" finds "Itaú"). */
export const foldAccents = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const folded: ReadonlyArray<readonly [string, string, string]> = bankRows.map(([code, name]) => [code, name, foldAccents(name)]);

/**
 * Banks whose code starts with `term`, then those whose name holds it (accents and case
 * ignored: "itau" finds ITAÚ UNIBANCO), at most `limit`.
 */
export function searchBanks(term: string, limit = 20): Array<{ code: string; name: string }> {
  const wanted = foldAccents(term.trim());
  if (!wanted) return folded.slice(0, limit).map(([code, name]) => ({ code, name }));
  const byCode = folded.filter(([code]) => code.startsWith(wanted));
  const byName = folded.filter(([code, , name]) => !code.startsWith(wanted) && name.includes(wanted));
  return [...byCode, ...byName].slice(0, limit).map(([code, name]) => ({ code, name }));
}

/** Words a bank's name shares with many others ("Banco", "S.A.", "(Brasil)"). */
const GENERIC_WORDS = new Set(['banco', 's', 'a', 'sa', 'brasil']);
const wordsOf = (text: string): string[] => foldAccents(text).split(/[^a-z0-9]+/).filter(Boolean);
const coreOf = (words: readonly string[]): string[] => words.filter((word) => !GENERIC_WORDS.has(word));
const named: ReadonlyArray<{ code: string; name: string; words: string[]; core: string }> = bankRows.map(([code, name]) => {
  const words = wordsOf(name);
  return { code, name, words, core: coreOf(words).join(' ') };
});

/**
 * A bank as a clerk writes it in a sheet ("Itaú", "bradesco"): the table's bank whose name,
 * without "Banco" and "S.A.", is what was written; else the only one holding every word
 * written as a whole word ("itau" is ITAÚ UNIBANCO, not Banco ItauBank). Accents and case
 * ignored. Several candidates: all of them (at most `limit`), for the clerk to choose.
 */
export function banksNamed(term: string, limit = 5): Array<{ code: string; name: string }> {
  const words = wordsOf(term);
  if (words.length === 0) return [];
  const core = coreOf(words).join(' ') || words.join(' ');
  const exact = named.filter((bank) => bank.core === core || bank.words.join(' ') === words.join(' '));
  const found = exact.length > 0 ? exact : named.filter((bank) => coreOf(words).every((word) => bank.words.includes(word)) && coreOf(words).length > 0);
  return found.slice(0, limit).map(({ code, name }) => ({ code, name }));
}
