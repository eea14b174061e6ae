import { bankRows } from './banks-data.js';

let byCode: Map<string, string> | undefined;

/** The institution's name for a 3-digit COMPE code, when the table knows it. */
export function bankName(compe: string): string | undefined {
  byCode ??= new Map(bankRows);
  return byCode.get(compe);
}
