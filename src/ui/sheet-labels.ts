/**
 * How a spreadsheet row and a column show in people's text: `planilha.csv, linha 7` and
 * `CEP (pessoa.endereco.cep)`. Reports of JSON files have no row and show as before.
 */
import type { Issue } from '../domain/issue.js';
import { type Lang, type Voice, say } from '../i18n/index.js';
import type { Io } from './io.js';

interface RowReportLike {
  file: string;
  row?: number;
}

/** `file`, or `file, row N` for a row of a sheet; the wizard's entry in the reader's words. */
export function entryLabel(report: RowReportLike, lang: Lang | Voice): string {
  if (report.file === '(wizard)') return say(lang, 'run.wizardEntry');
  if (report.row === undefined) return report.file;
  return say(lang, 'sheet.fileRow', { file: report.file, row: report.row });
}

const fold = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The column as the sheet shows it, then the field's path when it says more. The markers of
 * a whole file or document in the reader's words (--json keeps them as they are).
 */
export function issueWhere(issue: Issue & { column?: string | null }, lang: Lang | Voice): string {
  const column = issue.column;
  if (column === undefined || column === null || column === '') {
    return issue.path === '(file)' ? say(lang, 'validate.pathFile') : issue.path === '(root)' ? say(lang, 'validate.pathRoot') : issue.path;
  }
  if (issue.path.startsWith('(') || fold(column) === fold(issue.path)) return column;
  return `${column} (${issue.path})`;
}

/**
 * An issue as the --json contract has it, its message in the voice's language (a person's
 * data masked unless it reveals): `{path, message}`, and for a spreadsheet row also `column`
 * (docs/cli-contract.md, "Spreadsheets"); nothing else it may carry.
 */
export function issueJson(issue: Issue & { column?: string | null }, lang: Voice, inSheet: boolean): { path: string; column?: string | null; message: string } {
  const message = say(lang, issue.message);
  return inSheet ? { path: issue.path, column: issue.column ?? null, message } : { path: issue.path, message };
}

/** `econsig template -o -`: the file itself on stdout. */
export function writeTemplate(io: Io, bytes: Buffer): void {
  io.stdout.write(bytes);
}

export function renderTemplateWritten(io: Io, path: string): void {
  io.stderr.write(`${say(io.lang, 'sheet.templateWritten', { path })}\n`);
}
