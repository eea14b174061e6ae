/**
 * The workbooks econsig writes with exceljs: the results of a submit, and the template.
 * Loaded only when one is written.
 */
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { UFS } from '../domain/brazil.js';
import { type Lang, type MessageKey, say } from '../i18n/index.js';
import { openPendingFile } from '../safe-file.js';
import { CHOICE_FIELDS, allowedChoices } from './choices.js';
import { SHEET_COLUMNS, type SheetColumn, columnLabel } from './columns.js';
import { loadExcelJs } from './xlsx-reader.js';

/** Outcome colours (fill, ARGB): success green, failure red, "not known / not sent" amber. */
const OUTCOME_FILL: Record<string, string> = {
  accepted: 'FFC6EFCE',
  approved: 'FFC6EFCE',
  denied: 'FFFFC7CE',
  invalid: 'FFFFC7CE',
  rejected: 'FFFFC7CE',
  not_found: 'FFFFC7CE',
  unauthorized: 'FFFFC7CE',
  timeout: 'FFFFEB9C',
  unknown: 'FFFFEB9C',
  skipped: 'FFFFEB9C',
  rate_limited: 'FFFFEB9C',
  unavailable: 'FFFFEB9C',
};

function widthOf(values: readonly string[]): number {
  let longest = 8;
  for (const value of values) longest = Math.max(longest, Math.min(60, value.length + 2));
  return longest;
}

/** A results workbook being written: rows in input order as they come, then committed. */
export interface ResultsWorkbook {
  add(cells: readonly string[]): void;
  /** Write what is left and rename the workbook over its target. */
  commit(): Promise<void>;
  /** Leave the target as it was (the temporary file removed). */
  discard(): void;
}

/** Rows held to size the columns: enough for the widths, and no second pass over all. */
const WIDTH_SAMPLE = 200;

/**
 * The results workbook, written row by row as the batch goes (a million rows stay small):
 * header bold and frozen, the outcome cell coloured, each column as wide as its content (up
 * to 60, from the first 200 rows, held until then). Every cell is a string, so written as
 * text: nothing in it is run as a formula. Streamed to `<path>.econsig-tmp` beside it,
 * renamed over it once complete (src/safe-file.ts); a crash leaves the temporary file, which
 * the next run replaces.
 */
export async function openResultsXlsx(path: string, header: readonly string[], originalWidth: number): Promise<ResultsWorkbook> {
  const ExcelJS = await loadExcelJs();
  // exceljs's zip writer (archiver 5, archiver-utils 2) calls the deprecated `new Buffer()`.
  // Node says nothing of it inside node_modules, but bundled, it printed a DeprecationWarning
  // on the clerk's terminal. Quiet while the workbook is written (documented in util.deprecate;
  // archiver-utils 3, which fixed it, does not work under archiver 5).
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  const file = openPendingFile(path, { temporary: `${path}.econsig-tmp` });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: createWriteStream('', { fd: file.fd, autoClose: false }) as Writable, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Resultados', { views: [{ state: 'frozen', ySplit: 1 }] });
  // The outcome's cell: the header names it, after the original columns.
  const outcomeIndex = header.indexOf('outcome', originalWidth);
  const outcomeColumn = outcomeIndex + 1;
  const sample: string[][] = [];
  let started = false;
  const write = (cells: readonly string[]): void => {
    const row = sheet.addRow([...cells]);
    const fill = OUTCOME_FILL[cells[outcomeIndex] ?? ''];
    if (fill) row.getCell(outcomeColumn).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: fill } };
    row.commit();
  };
  // The columns' widths go before the first row: set from the rows held so far.
  const start = (): void => {
    started = true;
    sheet.columns = header.map((name, i) => ({ width: widthOf([name, ...sample.map((r) => r[i] ?? '')]) }));
    const top = sheet.addRow([...header]);
    top.font = { bold: true };
    top.commit();
    for (const cells of sample.splice(0)) write(cells);
  };
  const done = (): void => {
    file.discard();
    process.noDeprecation = quiet;
  };
  return {
    add(cells) {
      if (started) return write(cells);
      sample.push([...cells]);
      if (sample.length === WIDTH_SAMPLE) start();
    },
    async commit() {
      try {
        if (!started) start();
        sheet.commit();
        await workbook.commit();
        file.commit();
      } finally {
        done();
      }
    },
    discard: done,
  };
}

/**
 * The values of a column's drop-down list: the labels of a coded field in `lang` (what the
 * sheet reader turns back into codes, src/sheets/choices.ts), else the allowed values (UFs).
 */
export function dropDownValues(column: SheetColumn, lang: Lang): string[] {
  const codes = CHOICE_FIELDS[column.path];
  return codes ? codes.map((code) => say(lang, `choice.${code}` as MessageKey)) : [...(column.allowed ?? [])];
}

/** Rows of the template that carry the validation lists. */
const TEMPLATE_ROWS = 1000;

/** The template workbook: the headers, text-formatted columns, lists where a field has allowed values; a second sheet explains each column. */
export async function templateXlsx(lang: Lang): Promise<Buffer> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'econsig';
  const sheet = workbook.addWorksheet(say(lang, 'sheet.templateSheet'), { views: [{ state: 'frozen', ySplit: 1 }] });
  const labels = SHEET_COLUMNS.map((c) => columnLabel(c, lang));
  sheet.columns = SHEET_COLUMNS.map((c, i) => ({ width: Math.max(12, (labels[i] as string).length + 4, ...[c.example, ...dropDownValues(c, lang)].map((v) => v.length + 2)), style: { numFmt: '@' } }));
  const top = sheet.addRow(labels);
  top.font = { bold: true };
  SHEET_COLUMNS.forEach((column, i) => {
    if (!column.allowed) return;
    // Excel's list validation takes at most 255 characters of values, none a comma or a
    // quote; every list here fits (test/unit/sheets/choices.test.ts). Set per cell: exceljs
    // joins equal neighbours into one range when it writes.
    const list = `"${dropDownValues(column, lang).join(',')}"`;
    for (let row = 2; row <= TEMPLATE_ROWS; row++) {
      sheet.getCell(row, i + 1).dataValidation = { type: 'list', allowBlank: true, showErrorMessage: true, formulae: [list] };
    }
  });

  const help = workbook.addWorksheet(say(lang, 'sheet.templateHelpSheet'), { views: [{ state: 'frozen', ySplit: 1 }] });
  help.columns = [{ width: 24 }, { width: 34 }, { width: 12 }, { width: 60 }, { width: 22 }, { width: 60 }];
  const helpHeader = ['sheet.templateColumn', 'sheet.templatePath', 'sheet.templateRequired', 'sheet.templateWhat', 'sheet.templateExample', 'sheet.templateAllowed'] as const;
  help.addRow(helpHeader.map((key) => say(lang, key))).font = { bold: true };
  for (const column of SHEET_COLUMNS) {
    const required = say(lang, column.required ? 'sheet.templateYes' : column.path.startsWith('contaBancaria.') ? 'sheet.templatePayout' : 'sheet.templateNo');
    const coded = column.path in CHOICE_FIELDS;
    const allowed = coded ? say(lang, allowedChoices(column.path)) : column.allowed === UFS ? UFS.join(' ') : (column.allowed ?? []).join(', ');
    const example = coded ? say(lang, `choice.${column.example}` as MessageKey) : column.example;
    help.addRow([columnLabel(column, lang), column.path, required, say(lang, `sheet.help.${column.path}` as MessageKey), example, allowed]);
  }
  help.addRow([]);
  help.addRow([say(lang, 'sheet.templateNote')]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
