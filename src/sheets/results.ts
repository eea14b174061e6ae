/**
 * The results sheet of `submit <sheet>`: the original columns of every input row, then
 * idContrato, outcome, httpStatus, erros, result; one row per input row, in input order.
 *
 * Written as the batch goes, so a crash leaves the rows done so far: each row is appended
 * to a partial CSV beside the target (`<name>.parcial.csv`, 0600) as soon as it and every
 * row before it have their final result (a row waiting for an earlier one waits a little;
 * order is the promise). At the end the target is written whole through src/safe-file.ts
 * (a temporary file renamed over it; a link at the target refused before anything is
 * sent) and the partial removed: the xlsx in one go (header bold and frozen, outcomes
 * coloured, widths set; a zip is only valid once closed), the CSV again in full.
 */
import { closeSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { looksLikeFormula } from '../domain/formula.js';
import { EconsigError, ExitCode } from '../errors.js';
import { type Lang, msg, say } from '../i18n/index.js';
import { checkOutputPath, createFile, writeFileSafely } from '../safe-file.js';
import type { SheetFormat } from './kind.js';
import type { SubmitResult, FileReport } from '../domain/report.js';

export const RESULT_COLUMNS = ['idContrato', 'outcome', 'httpStatus', 'erros', 'result'] as const;

export interface ResultsSheet {
  file: string;
  absolute: string | null;
  format: SheetFormat;
  header: string[];
}

/** `--results`, or `<name>.resultados.<ext>` beside the input (stdin: in the working folder). */
export function resultsPath(sheet: ResultsSheet, flag: string | undefined, cwd: string): string {
  if (flag !== undefined) return resolve(cwd, flag);
  if (sheet.absolute === null) return resolve(cwd, `resultados.${sheet.format}`);
  const ext = extname(sheet.absolute);
  return join(dirname(sheet.absolute), `${basename(sheet.absolute, ext)}.resultados${ext.toLowerCase()}`);
}

/**
 * The five result cells of a row, people's text in `lang` (the results sheet is a document
 * for people). Whole, a person's data included: it is the clerk's own sheet, beside the
 * columns that hold that data (docs/privacy.md).
 */
function resultCells(result: SubmitResult, language: Lang): string[] {
  const lang = { lang: language, reveal: true };
  let erros = result.erros.map((e) => `${e.codigo}: ${e.msg}`).join('; ');
  if (erros === '' && result.errors.length > 0) {
    erros = result.errors.map((e) => `${(e as { column?: string | null }).column ?? e.path}: ${say(lang, e.message)}`).join('; ');
  }
  if (erros === '' && !['accepted', 'approved'].includes(result.outcome)) erros = say(lang, result.message);
  const approval = result.result ? [result.result.status ?? result.result.outcome, result.result.reason].filter(Boolean).join(': ') : '';
  return [result.idContrato ?? '', result.outcome, result.httpStatus === null ? '' : String(result.httpStatus), erros, approval];
}

/**
 * A CSV field, quoted when it must be (RFC 4180); `;` as Excel in Brazil reads it. Text a
 * spreadsheet would run as a formula gets a leading `'` (OWASP, CSV injection;
 * docs/spreadsheets.md "No formula reaches a spreadsheet").
 */
function csvField(cell: string): string {
  const text = looksLikeFormula(cell) ? `'${cell}` : cell;
  return /[";\r\n,]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvField).join(';')}\r\n`;
}

function cannotWrite(path: string, error: unknown): EconsigError {
  if (error instanceof EconsigError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  return new EconsigError(msg('sheet.cannotWriteResults', { path, code }), { exitCode: ExitCode.storage, hint: msg('sheet.cannotWriteResultsHint'), cause: error });
}

export interface ResultsWriter {
  /** A row's final result (any order); rows are written in input order as they complete. */
  add(result: SubmitResult): void;
  /** Every result of the run (in input order): the finished file. */
  finish(results: readonly SubmitResult[]): Promise<string>;
}

/**
 * Open the results of one sheet: `rows` are its data rows' reports (with cells), in order.
 * Invalid rows are final at once; the others as their results come.
 */
export function openResults(sheet: ResultsSheet, rows: readonly FileReport[], path: string, lang: Lang): ResultsWriter {
  const xlsx = extname(path).toLowerCase() === '.xlsx';
  // The file written as the batch goes.
  const live = path.replace(/\.(xlsx|csv)$/i, '.parcial.csv');
  const width = sheet.header.length;
  const original = (report: FileReport): string[] => Array.from({ length: width }, (_, i) => (report as { cells?: string[] }).cells?.[i] ?? '');
  const indexOf = new Map<number, number>();
  rows.forEach((report, index) => indexOf.set(report.row as number, index));
  const done: Array<SubmitResult | undefined> = new Array(rows.length);
  let written = 0;
  let fd: number | undefined;
  try {
    checkOutputPath(path);
    fd = createFile(live);
    // A BOM: Excel then reads the CSV as UTF-8 (accents intact).
    writeSync(fd, `\ufeff${csvLine([...sheet.header, ...RESULT_COLUMNS])}`);
  } catch (error) {
    throw cannotWrite(live, error);
  }
  const flush = (): void => {
    while (written < rows.length && done[written] !== undefined) {
      const line = csvLine([...original(rows[written] as FileReport), ...resultCells(done[written] as SubmitResult, lang)]);
      try {
        if (fd !== undefined) writeSync(fd, line);
      } catch {
        // Best effort while the batch runs; finish() writes the whole file or fails loudly.
        closeSync(fd as number);
        fd = undefined;
      }
      written += 1;
    }
  };
  return {
    add(result) {
      const index = result.row === undefined ? undefined : indexOf.get(result.row);
      if (index === undefined || done[index] !== undefined) return;
      done[index] = result;
      flush();
    },
    async finish(results) {
      for (const result of results) {
        const index = result.row === undefined ? undefined : indexOf.get(result.row);
        if (index !== undefined) done[index] = result;
      }
      if (fd !== undefined) {
        closeSync(fd);
        fd = undefined;
      }
      const table = rows.map((report, index) => [...original(report), ...resultCells(done[index] ?? notRun(report), lang)]);
      try {
        if (xlsx) {
          const { writeResultsXlsx } = await import('./xlsx-writer.js');
          await writeResultsXlsx(path, [...sheet.header, ...RESULT_COLUMNS], table, width);
        } else {
          writeFileSafely(path, `\ufeff${csvLine([...sheet.header, ...RESULT_COLUMNS])}${table.map(csvLine).join('')}`);
        }
        rmSync(live, { force: true });
      } catch (error) {
        throw cannotWrite(path, error);
      }
      return path;
    },
  };
}

/** A row the run ended without (interrupted before its turn). */
function notRun(report: FileReport): SubmitResult {
  return {
    file: report.file,
    ...(report.row !== undefined ? { row: report.row } : {}),
    outcome: 'skipped',
    httpStatus: null,
    idContrato: null,
    erros: [],
    result: null,
    message: msg('sheet.notRun'),
    exitCode: ExitCode.ok,
    warnings: [],
    errors: [],
    attempts: 0,
    idProposta: null,
  };
}
