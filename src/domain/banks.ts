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
