import { bankRows } from './banks-data.js';

const byCode: ReadonlyMap<string, string> = new Map(bankRows);

/** The institution's name for a 3-digit COMPE code, when the table knows it. */
export function bankName(compe: string): string | undefined {
  return byCode.get(compe);
}
