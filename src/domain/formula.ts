/**
 * Text a spreadsheet would run as a formula (OWASP, "CSV Injection"): a cell that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return. Said once for the two places that
 * care: the results CSV writes such a cell with a leading `'` (sheets/results.ts), and
 * validate warns about such a value (domain/validate.ts).
 */
import { msg } from '../i18n/index.js';
import type { Issue } from './issue.js';

const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A plain number, signed or not (`-12`, `+5511987654321`, `1.234,56`): a spreadsheet reads
 * it as a number, which computes nothing, and a `'` would change the value a clerk copies
 * back into a sheet (a phone Pix key with a `'` fails validation). A lone `-`, a clerk's
 * "none", is as harmless.
 */
const PLAIN_NUMBER = /^(?:[+-]?\d+(?:[.,]\d+)*|-)$/;

/** Whether a text cell would be run as a formula by Excel or LibreOffice. */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/**
 * A warning for each text value of `document` that looks like a formula, by its dotted path
 * (a sheet's row adds the column); none where the value already has an error.
 */
export function formulaWarnings(document: unknown, errors: readonly Issue[]): Issue[] {
  const found: Issue[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (looksLikeFormula(value) && !errors.some((e) => e.path === path)) found.push({ path, message: msg('rule.formulaLike', { first: JSON.stringify(value[0]) }) });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(child, path === '' ? key : `${path}.${key}`);
    }
  };
  walk(document, '');
  return found;
}
