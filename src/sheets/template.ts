/**
 * `econsig template`: an empty submissions sheet. CSV: the header line, `;`-separated with
 * a byte order mark, as a Brazilian Excel opens it. xlsx: src/sheets/xlsx-writer.ts.
 */
import type { Lang } from '../i18n/index.js';
import { SHEET_COLUMNS, columnLabel } from './columns.js';

function templateCsv(lang: Lang): string {
  return `\ufeff${SHEET_COLUMNS.map((c) => columnLabel(c, lang)).join(';')}\r\n`;
}

export async function templateBytes(format: 'xlsx' | 'csv', lang: Lang): Promise<Buffer> {
  if (format === 'csv') return Buffer.from(templateCsv(lang), 'utf8');
  const { templateXlsx } = await import('./xlsx-writer.js');
  return templateXlsx(lang);
}

/** `modelo-econsig.xlsx` in Portuguese, `econsig-template.xlsx` in English. */
export function defaultTemplateName(format: 'xlsx' | 'csv', lang: Lang): string {
  return `${lang === 'pt-BR' ? 'modelo-econsig' : 'econsig-template'}.${format}`;
}
