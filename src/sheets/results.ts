/**
 * The results sheet of `submit <sheet>`: every column of every input row as read (unknown
 * and hidden ones too), then econsig's columns (RESULT_COLUMNS: idContrato, outcome,
 * httpStatus, erros, result; in a pt-BR run with Portuguese headers and a `Situação` in
 * words beside the stable `outcome` code); one row per input row, in input order.
 *
 * Written as the batch goes, so a crash leaves the rows done so far and nothing is held but
 * the rows waiting for an earlier one (issue 22): each row is appended to a partial CSV
 * beside the target (`<name>.parcial.csv`, 0600) as soon as it and every row before it have
 * their final result (order is the promise). Through src/safe-file.ts: a link at the target
 * is refused before anything is sent, and the target appears whole at the end. For a CSV
 * target the partial is its temporary file, renamed over it; an xlsx target is streamed row
 * by row to a temporary file beside it (header bold and frozen, outcomes coloured, widths
 * set; a zip is only valid once closed), renamed over it at the end, and the partial removed.
 */
import { basename, dirname, extname, join, resolve } from 'node:path';
import { looksLikeFormula } from '../domain/formula.js';
import { EconsigError, ExitCode } from '../errors.js';
import { type Lang, type Voice, msg, say } from '../i18n/index.js';
import { type PendingFile, openPendingFile } from '../safe-file.js';
import type { ResultsWorkbook } from './xlsx-writer.js';
import type { SheetFormat } from './kind.js';
import type { SubmitResult, FileReport } from '../domain/report.js';

/** One of econsig's columns of the results sheet: its header in each language, and its cell. */
interface ResultColumn {
  /** null: the column is in pt-BR runs only. */
  en: string | null;
  pt: string;
  cell(result: SubmitResult, voice: Voice, runId: string): string;
}

/**
 * econsig's columns, after the clerk's, in order: the one list (a column added here is in
 * the CSV, the xlsx and the partial file). `outcome` is the stable code scripts read, under
 * that header in both languages; a person reads `Situação`.
 */
export const RESULT_COLUMNS: readonly ResultColumn[] = [
  // The run's id (docs/cli-contract.md, "Runs"): `econsig runs show <run>`.
  { en: 'run', pt: 'Execução', cell: (_r, _voice, runId) => runId },
  // A copy skipped for another row's data (run.alsoIn) names that row's contract in --json;
  // beside the skipped row's cells it would read as the row's own (issue 24).
  { en: 'idContrato', pt: 'Id do contrato', cell: (r) => (r.message.key === 'run.alsoIn' ? '' : (r.idContrato ?? '')) },
  { en: null, pt: 'Situação', cell: (r, voice) => say(voice, `run.outcome_${r.outcome}`) },
  { en: 'outcome', pt: 'outcome', cell: (r) => r.outcome },
  { en: 'httpStatus', pt: 'Status HTTP', cell: (r) => (r.httpStatus === null ? '' : String(r.httpStatus)) },
  { en: 'erros', pt: 'Erros', cell: errorsCell },
  { en: 'result', pt: 'Resultado', cell: (r) => (r.result ? [r.result.status ?? r.result.outcome, r.result.reason].filter(Boolean).join(': ') : '') },
];

/** The columns of a run in `lang`. */
function resultColumns(lang: Lang): readonly ResultColumn[] {
  return lang === 'pt-BR' ? RESULT_COLUMNS : RESULT_COLUMNS.filter((c) => c.en !== null);
}

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
 * What went wrong, people's text in the run's language (the results sheet is a document for
 * people). Whole, a person's data included: it is the clerk's own sheet, beside the
 * columns that hold that data (docs/privacy.md).
 */
function errorsCell(result: SubmitResult, voice: Voice): string {
  let erros = result.erros.map((e) => `${e.codigo}: ${e.msg}`).join('; ');
  if (erros === '' && result.errors.length > 0) {
    erros = result.errors.map((e) => `${(e as { column?: string | null }).column ?? e.path}: ${say(voice, e.message)}`).join('; ');
  }
  if (erros === '' && !['accepted', 'approved'].includes(result.outcome)) erros = say(voice, result.message);
  return erros;
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
  /** A data row as it is read, in input order: its cells wait here for its result. */
  expect(report: FileReport): void;
  /** A row's final result (any order); rows are written in input order as they complete. */
  add(result: SubmitResult): void;
  /** The run the rows belong to, before the first result (each row names it). */
  setRun(id: string): void;
  /** The finished file (a row never resulted is written `skipped`, not run); its path. */
  finish(): Promise<string>;
}

/**
 * Open the results of one sheet, before anything is sent: a target econsig will not write
 * (a link, a FIFO) or cannot create stops the run there. Rows are written in input order as
 * they and every row before them have their result, and only the rows waiting for an
 * earlier one are held (issue 22). The partial CSV is the CSV target's temporary file,
 * renamed over it at the end; an xlsx target is streamed beside it as the rows come.
 */
export async function openResults(sheet: ResultsSheet, path: string, lang: Lang): Promise<ResultsWriter> {
  const xlsx = extname(path).toLowerCase() === '.xlsx';
  // The file written as the batch goes.
  const live = path.replace(/\.(xlsx|csv)$/i, '.parcial.csv');
  const width = sheet.header.length;
  const columns = resultColumns(lang);
  const header = [...sheet.header, ...columns.map((c) => (lang === 'pt-BR' ? c.pt : (c.en as string)))];
  const voice: Voice = { lang, reveal: true };
  const resultCells = (result: SubmitResult): string[] => columns.map((c) => c.cell(result, voice, runId));
  const original = (report: FileReport): string[] => Array.from({ length: width }, (_, i) => (report as { cells?: string[] }).cells?.[i] ?? '');
  let file: PendingFile;
  try {
    // The partial CSV is the CSV target's temporary file (renamed over it at the end), or,
    // for an xlsx target, a file of its own (removed at the end: discarded).
    file = openPendingFile(xlsx ? live : path, { temporary: live });
    // A BOM: Excel then reads the CSV as UTF-8 (accents intact).
    file.write(`\ufeff${csvLine(header)}`);
  } catch (error) {
    throw cannotWrite(live, error);
  }
  let workbook: ResultsWorkbook | undefined;
  if (xlsx) {
    try {
      workbook = await (await import('./xlsx-writer.js')).openResultsXlsx(path, header, width + columns.findIndex((c) => c.en === 'outcome'));
    } catch (error) {
      file.discard();
      throw cannotWrite(path, error);
    }
  }
  /** The rows read and not yet written, in input order (from `next`), and each one's result once in. */
  let order: number[] = [];
  let next = 0;
  const waiting = new Map<number, { report: FileReport; result?: SubmitResult }>();
  let failed: unknown;
  let runId = '';
  const write = (cells: string[]): void => {
    if (failed !== undefined) return;
    try {
      file.write(csvLine(cells));
      workbook?.add(cells);
    } catch (error) {
      // Said at the end (exit 74); the run goes on, and its results are in the store.
      failed = error;
    }
  };
  const flush = (): void => {
    for (let entry = waiting.get(order[next] as number); entry?.result !== undefined; entry = waiting.get(order[next] as number)) {
      write([...original(entry.report), ...resultCells(entry.result)]);
      waiting.delete(order[next] as number);
      next += 1;
    }
    // The written part of the queue is dropped now and then, not row by row.
    if (next > 4096 && next * 2 > order.length) {
      order = order.slice(next);
      next = 0;
    }
  };
  return {
    setRun(id) {
      runId = id;
    },
    expect(report) {
      if (report.row === undefined || waiting.has(report.row)) return;
      order.push(report.row);
      waiting.set(report.row, { report });
    },
    add(result) {
      const entry = result.row === undefined ? undefined : waiting.get(result.row);
      if (entry === undefined || entry.result !== undefined) return;
      entry.result = result;
      flush();
    },
    async finish() {
      for (const entry of waiting.values()) entry.result ??= notRun(entry.report);
      flush();
      try {
        if (failed !== undefined) throw failed;
        if (workbook) {
          await workbook.commit();
          file.discard();
        } else file.commit();
      } catch (error) {
        workbook?.discard();
        throw cannotWrite(failed === undefined ? path : live, error);
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
