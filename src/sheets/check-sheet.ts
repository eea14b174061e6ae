/**
 * A spreadsheet as a batch of submissions: the header names the columns, each row after it
 * is one submission, checked by the same normalisation and rules as a JSON file
 * (validateSubmission). Every report names the row as the spreadsheet shows it (the header
 * is row 1) and each problem its column header. Rows are checked as they are read, so
 * `validate` of a large sheet holds one row at a time.
 */
import { createReadStream } from 'node:fs';
import { ExitCode } from '../errors.js';
import { type Issue, shownValue } from '../domain/issue.js';
import { validateSubmission } from '../domain/validate.js';
import { isValidCpf } from '../domain/brazil.js';
import { banksNamed } from '../domain/banks.js';
import type { Submission } from '../domain/submission.js';
import { suggest } from '../suggest.js';
import { type Lang, type Message, msg, personal } from '../i18n/index.js';
import { BANK_COLUMNS, SHEET_COLUMNS, type SheetColumn, columnLabel, columnOfHeader, foldHeader, knownHeaders } from './columns.js';
import { CHOICE_FIELDS, allowedChoices, choiceOf } from './choices.js';
import { type RawRow, SheetReadError, readCsvRows } from './csv-reader.js';
import type { SheetFormat } from './kind.js';
import { type FileReport, type Source, problemOfFile } from '../domain/report.js';

/** A problem of a sheet: the dotted path of the field and the column header it came from. */
export interface SheetIssue extends Issue {
  column: string | null;
}

export interface SheetReport extends FileReport {
  /** The row as the spreadsheet shows it (header = 1). */
  row: number;
  errors: SheetIssue[];
  warnings: SheetIssue[];
  /** The header row's report: column problems and notes about skipped rows. */
  header?: boolean;
  /** What was skipped, for people (not problems: they do not fail a row, even with --strict). */
  notes?: Message[];
  /** The row's cells as text, by column (kept for the results sheet). */
  cells?: string[];
  /** The document the row's cells make, before normalisation (the wizard starts from it). */
  document?: Record<string, unknown>;
}

export interface SheetOptions {
  now: Date;
  strict: boolean;
  keepValues?: boolean;
  /** Keep each row's cells (submit writes them back into the results sheet). */
  keepCells?: boolean;
  /** Keep each row's document as the cells make it (`submit -i --row`). */
  keepDocument?: boolean;
  lang: Lang;
  /** The worksheet of an xlsx (default: the first). */
  sheet?: string | undefined;
  stdin: { isTTY?: boolean } & AsyncIterable<Buffer | string>;
}

const quote = (text: string): string => JSON.stringify(text);

/** `2, 5-7, 9`: row numbers as ranges, at most 20 parts. */
function rowRanges(rows: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const start = rows[i] as number;
    let end = start;
    while (rows[i + 1] === end + 1) end = rows[++i] as number;
    parts.push(start === end ? String(start) : `${start}-${end}`);
  }
  return parts.length > 20 ? `${parts.slice(0, 20).join(', ')}, …` : parts.join(', ');
}

/** The header row is looked for in the first rows: a title merged above it is common. */
const HEADER_SEARCH_ROWS = 10;
const HEADER_PATH = '(header)';
const FILE_PATH = '(file)';

interface Mapping {
  /** By cell index: the column it fills, or undefined (unknown, duplicate or blank header). */
  columns: Array<SheetColumn | undefined>;
  /** By cell index: the header as the sheet shows it. */
  shown: string[];
  /** By field path: the header as shown. */
  headerOf: Map<string, string>;
  errors: SheetIssue[];
  warnings: SheetIssue[];
  /** The objects every row's document starts with (`pessoa`, `pessoa.endereco`...), parents first. */
  parents: string[][];
  /** columnsOfPath's answers, by path (a batch asks the same few paths over and over). */
  columnCache: Map<string, string | null>;
}

/** Read the header: every column named, unknown ones warned with a near miss, missing required ones named. */
export function mapHeader(cells: readonly unknown[], lang: Lang): Mapping {
  const mapping: Mapping = { columns: [], shown: [], headerOf: new Map(), errors: [], warnings: [], parents: [], columnCache: new Map() };
  const known = knownHeaders(lang);
  cells.forEach((cell, index) => {
    const shown = plainText(cell).trim();
    mapping.shown[index] = shown;
    if (shown === '') return;
    const column = columnOfHeader(shown);
    if (column === undefined) {
      const near = suggest(shown, known);
      const message = msg('sheet.unknownColumn', { header: quote(shown), didYouMean: near ? msg('sheet.didYouMean', { near: quote(near) }) : '' });
      mapping.warnings.push({ path: HEADER_PATH, column: shown, message });
      return;
    }
    const first = mapping.headerOf.get(column.path);
    if (first !== undefined) {
      mapping.warnings.push({ path: column.path, column: shown, message: msg('sheet.duplicateColumn', { header: quote(shown), first: quote(first) }) });
      return;
    }
    mapping.columns[index] = column;
    mapping.headerOf.set(column.path, shown);
  });
  const parents = new Set<string>();
  for (const path of mapping.headerOf.keys()) {
    const keys = path.split('.');
    for (let i = 1; i < keys.length; i++) parents.add(keys.slice(0, i).join('.'));
  }
  mapping.parents = [...parents].sort((a, b) => a.length - b.length).map((path) => path.split('.'));
  // Not one known column: the wrong sheet (or no header), not seventeen missing columns.
  if (mapping.headerOf.size === 0) {
    mapping.warnings = [];
    mapping.errors.push({ path: HEADER_PATH, column: null, message: msg('sheet.noKnownColumn') });
    return mapping;
  }
  const has = (path: string): boolean => mapping.headerOf.has(path);
  // A missing column is named as the sheet's other headers are written (pt-BR or English).
  const labels = labelLanguage(mapping.headerOf, lang);
  for (const column of SHEET_COLUMNS) {
    if (column.required && !has(column.path)) {
      const label = columnLabel(column, labels);
      mapping.errors.push({ path: column.path, column: label, message: msg('sheet.missingColumn', { label: quote(label), path: column.path }) });
    }
  }
  if (!has('contaBancaria.chavePix')) {
    const missing = BANK_COLUMNS.filter((path) => !has(path));
    const label = (path: string): string => columnLabel(SHEET_COLUMNS.find((c) => c.path === path) as SheetColumn, labels);
    if (missing.length === BANK_COLUMNS.length) {
      mapping.errors.push({ path: 'contaBancaria', column: null, message: msg('sheet.missingPayout') });
    } else if (missing.length > 0) {
      mapping.errors.push({ path: 'contaBancaria', column: null, message: msg('sheet.missingBankColumns', { labels: missing.map((p) => quote(label(p))).join(', ') }) });
    }
  }
  return mapping;
}

/** The language of the labels a header uses: the one more of its headers are written in (else `fallback`). */
function labelLanguage(headerOf: Map<string, string>, fallback: Lang): Lang {
  let pt = 0;
  let en = 0;
  for (const [path, shown] of headerOf) {
    const column = SHEET_COLUMNS.find((c) => c.path === path) as SheetColumn;
    const folded = foldHeader(shown);
    if (folded === foldHeader(column.pt) && folded !== foldHeader(column.en)) pt += 1;
    if (folded === foldHeader(column.en) && folded !== foldHeader(column.pt)) en += 1;
  }
  return pt > en ? 'pt-BR' : en > pt ? 'en' : fallback;
}

/** The text of a cell whatever exceljs made of it (rich text, hyperlink, formula result). */
function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return isoDate(value);
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: string };
    if (Array.isArray(v.richText)) return v.richText.map((part) => part.text).join('');
    if ('result' in v) return plainText(v.result);
    if (typeof v.text === 'string') return v.text;
    if (typeof v.error === 'string') return v.error;
  }
  return String(value);
}

/** A date cell as YYYY-MM-DD: exceljs gives the day at midnight UTC (rounded: serials are floats). */
function isoDate(date: Date): string {
  const rounded = new Date(Math.round(date.getTime() / 60_000) * 60_000);
  return rounded.toISOString().slice(0, 10);
}

interface CellText {
  text: string;
  warning?: Message;
  error?: Message;
  /** The cell held a number (a lost leading zero is possible). */
  wasNumber?: boolean;
}

/** A cell as the text the submission field takes; a number in a fixed-length field gets its zeros back. */
export function cellText(value: unknown, column: SheetColumn): CellText {
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0) {
      const digits = String(value);
      // A phone typed as +55... in a number cell lost its "+" (Excel keeps digits only).
      if (column.path === 'pessoa.telefone' && /^55\d{10,11}$/.test(digits)) {
        return { text: `+${digits}`, warning: msg('sheet.phoneNumberCell', { shown: personal('phone', digits), text: personal('phone', `+${digits}`) }), wasNumber: true };
      }
      if (column.digits !== undefined && digits.length < column.digits) {
        const text = digits.padStart(column.digits, '0');
        return { text, warning: msg('sheet.numberAsText', { shown: digits, text: shownValue(column.path, text), digits: column.digits }), wasNumber: true };
      }
      return { text: digits, wasNumber: true };
    }
    return { text: String(value), wasNumber: true };
  }
  if (value instanceof Date) {
    const text = isoDate(value);
    return column.path === 'pessoa.documento.dataDeEmissao' ? { text } : { text, warning: msg('sheet.dateCell', { text: quote(text) }) };
  }
  if (value !== null && typeof value === 'object') {
    const v = value as { formula?: unknown; sharedFormula?: unknown; result?: unknown; error?: unknown };
    if ('formula' in v || 'sharedFormula' in v) {
      if (v.result === undefined) return { text: '', error: msg('sheet.formulaNoValue') };
      if (typeof v.result === 'object' && v.result !== null && 'error' in v.result) return { text: '', error: msg('sheet.cellError', { code: String((v.result as { error: unknown }).error) }) };
      return cellText(v.result, column);
    }
    if (typeof v.error === 'string') return { text: '', error: msg('sheet.cellError', { code: v.error }) };
  }
  return { text: plainText(value) };
}

function setPath(target: Record<string, unknown>, path: string, value: string): void {
  const keys = path.split('.');
  let node = target;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i] as string;
    node = (node[key] ??= {}) as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
}

const CNH_DIGITS = 11;
const CHOICE_PATHS = Object.keys(CHOICE_FIELDS);

/** One data row: its document, and the problems of its cells. */
function checkRow(raw: RawRow, mapping: Mapping, options: Pick<SheetOptions, 'now' | 'strict' | 'keepValues' | 'keepCells' | 'keepDocument' | 'lang'>): Omit<SheetReport, 'file'> {
  // The objects of every column's field exist, even when the row leaves them empty: the
  // rules then name the fields ("needs a Pix key or complete bank data"), not the object.
  const document: Record<string, unknown> = {};
  for (const keys of mapping.parents) {
    let node = document;
    for (let i = 0; i < keys.length - 1; i++) node = node[keys[i] as string] as Record<string, unknown>;
    node[keys[keys.length - 1] as string] = {};
  }
  const cellErrors: SheetIssue[] = [];
  const cellWarnings: SheetIssue[] = [];
  const texts = new Map<string, CellText>();
  const cells: string[] = [];
  // Every cell of the header's width, the unknown (and hidden) columns' too: the results
  // sheet gives the clerk's own columns back (a sparse array's forEach would skip them).
  for (let index = 0; index < mapping.shown.length; index++) {
    const column = mapping.columns[index];
    if (column === undefined) {
      if (options.keepCells) cells[index] = plainText(raw.cells[index]);
      continue;
    }
    const converted = cellText(raw.cells[index], column);
    if (options.keepCells) cells[index] = converted.text;
    texts.set(column.path, converted);
  }
  // A coded field takes its code or its label in either language (the template's lists).
  for (const path of CHOICE_PATHS) {
    const converted = texts.get(path);
    if (converted === undefined || converted.error || !FILLED.test(converted.text)) continue;
    const code = choiceOf(path, converted.text);
    if (code !== undefined) converted.text = code;
    else converted.error = msg('sheet.unknownChoice', { value: quote(converted.text.trim()), allowed: allowedChoices(path) });
  }
  // A CNH number is 11 digits too; only the row says whether the document is a CNH.
  const numero = texts.get('pessoa.documento.numero');
  const tipo = texts.get('pessoa.documento.tipoDocumento')?.text.trim().toUpperCase();
  if (numero?.wasNumber && tipo === 'CNH' && /^\d+$/.test(numero.text) && numero.text.length < CNH_DIGITS) {
    const text = numero.text.padStart(CNH_DIGITS, '0');
    texts.set('pessoa.documento.numero', { text, warning: msg('sheet.numberAsText', { shown: personal('document', numero.text), text: personal('document', text), digits: CNH_DIGITS }) });
  }
  clerksSpellings(texts, options.now);
  for (const [path, converted] of texts) {
    const column = mapping.headerOf.get(path) ?? null;
    if (converted.error) cellErrors.push({ path, column, message: converted.error });
    if (converted.warning) cellWarnings.push({ path, column, message: converted.warning });
    if (FILLED.test(converted.text)) setPath(document, path, converted.text);
  }

  // validateSubmission does not change its input: the document can be kept as it is.
  const result = validateSubmission(document, { now: options.now });
  const columnOf = (path: string): string | null => columnsOfPath(mapping, path);
  const errors: SheetIssue[] = [...cellErrors];
  for (const issue of result.errors) {
    // A cell error already explains its field; the "is required" that follows is noise.
    if (cellErrors.some((e) => e.path === issue.path)) continue;
    errors.push({ path: issue.path, column: columnOf(issue.path), message: withLostZeros(issue, texts) });
  }
  const warnings: SheetIssue[] = [...cellWarnings];
  for (const warning of result.warnings) {
    // Nor does a cell in error need the note of what normalising it changed.
    if (!cellErrors.some((e) => e.path === warning.path)) warnings.push({ path: warning.path, column: columnOf(warning.path), message: warning.message });
  }
  const ok = errors.length === 0 && !(options.strict && warnings.length > 0);
  const report: Omit<SheetReport, 'file'> = { row: raw.row, ok, errors, warnings, exitCode: ok ? ExitCode.ok : ExitCode.invalid };
  if (ok && result.value && options.keepValues) report.value = result.value as Submission;
  const id = texts.get('idProposta')?.text.trim();
  if (id) report.idProposta = id;
  if (options.keepCells) report.cells = cells;
  if (options.keepDocument) report.document = document;
  return report;
}

const TEN_DIGITS = /^\d{10}$/;
const HAS_LETTER = /\p{L}/u;
const TWO_DIGIT_YEAR = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/;

/**
 * What clerks type that a program would not (issue 24), read as they meant it, each with a
 * warning: a CPF Pix key whose leading zero Excel (or a CSV) dropped, a bank by its name,
 * a date with a two-digit year. A name that fits several banks is an error listing them.
 */
function clerksSpellings(texts: Map<string, CellText>, now: Date): void {
  const pix = texts.get('contaBancaria.chavePix');
  const key = pix?.text.trim();
  if (pix && !pix.error && key !== undefined && TEN_DIGITS.test(key) && isValidCpf(`0${key}`)) {
    texts.set('contaBancaria.chavePix', { text: `0${key}`, warning: msg('sheet.cpfLostZero', { shown: personal('cpf', key), text: personal('cpf', `0${key}`) }) });
  }
  const compe = texts.get('contaBancaria.compe');
  const bank = compe?.text.trim();
  if (compe && !compe.error && bank !== undefined && HAS_LETTER.test(bank)) {
    const found = banksNamed(bank);
    if (found.length === 1) {
      const { code, name } = found[0] as { code: string; name: string };
      texts.set('contaBancaria.compe', { text: code, warning: msg('sheet.bankByName', { value: quote(bank), code, name }) });
    } else {
      const candidates = found.map((b) => `${b.code} ${b.name}`).join('; ');
      compe.error = found.length > 1 ? msg('sheet.bankAmbiguous', { value: quote(bank), candidates }) : msg('sheet.bankUnknown', { value: quote(bank) });
    }
  }
  const issued = texts.get('pessoa.documento.dataDeEmissao');
  const short = issued && !issued.error ? TWO_DIGIT_YEAR.exec(issued.text.trim()) : null;
  if (issued && short) {
    const [, day, month, yy] = short as unknown as [string, string, string, string];
    // Of 19yy and 20yy, exactly one is neither in the future nor a century ago: that one.
    const iso = (century: string): string => `${century}${yy}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
    const text = iso('20') <= now.toISOString().slice(0, 10) ? iso('20') : iso('19');
    texts.set('pessoa.documento.dataDeEmissao', { text, warning: msg('sheet.twoDigitYear', { value: quote(issued.text.trim()), text: quote(text) }) });
  }
}

/**
 * The column of a path: its own header, or for an object (`contaBancaria`) the headers of
 * its fields in the sheet, so that a rule across fields still points at cells.
 */
function columnsOfPath(mapping: Mapping, path: string): string | null {
  let found = mapping.columnCache.get(path);
  if (found !== undefined) return found;
  const own = mapping.headerOf.get(path);
  const inside = [...mapping.headerOf].filter(([field]) => field.startsWith(`${path}.`)).map(([, header]) => header);
  found = own ?? (inside.length > 0 ? inside.join(', ') : null);
  mapping.columnCache.set(path, found);
  return found;
}

/** A fixed-length field written as text that is short of digits: its problem says what it would be with its zeros. */
function withLostZeros(issue: Issue, texts: Map<string, CellText>): Message {
  const column = SHEET_COLUMNS.find((c) => c.path === issue.path);
  // A CSV's `1310-100` lost its zero as surely as a number cell's 1310100.
  const text = texts.get(issue.path)?.text.trim().replace(/[.\-\s]/g, '');
  if (column?.digits === undefined || text === undefined || !/^\d+$/.test(text) || text.length >= column.digits) return issue.message;
  return msg('sheet.lostZerosHint', { message: issue.message, fixed: quote(text.padStart(column.digits, '0')) });
}

const FILLED = /\S/;

function isEmptyRow(cells: readonly unknown[]): boolean {
  for (const cell of cells) {
    if (cell === null || cell === undefined) continue;
    if (FILLED.test(typeof cell === 'string' ? cell : plainText(cell))) return false;
  }
  return true;
}

/** Byte chunks of a source: the file, or standard input. */
function chunksOf(source: Source, options: SheetOptions): AsyncIterable<Buffer | string> {
  return source.absolute === null ? options.stdin : createReadStream(source.absolute, { highWaterMark: 64 * 1024 });
}

async function rowsOf(source: Source, format: SheetFormat, options: SheetOptions): Promise<AsyncGenerator<RawRow>> {
  if (format === 'csv') return readCsvRows(chunksOf(source, options));
  const { readXlsxRows } = await import('./xlsx-reader.js');
  return readXlsxRows(source.absolute ?? options.stdin, options.sheet);
}

/** `256 KiB`, `1 GiB`: a limit for people. */
function sizeText(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GiB` : bytes >= 1024 ** 2 ? `${bytes / 1024 ** 2} MiB` : `${bytes / 1024} KiB`;
}

/** What to say of a sheet that cannot be read (a SheetReadError, or the system's error), and its exit code. */
export function problemOfSheet(error: unknown, source: Source): { message: Message; exitCode: ExitCode } {
  if (error instanceof SheetReadError) {
    const p = error.problem;
    switch (p.kind) {
      // A file whose bytes are not text in an encoding we read cannot be read: 2, as a missing file.
      case 'not-utf8':
        return { message: msg('sheet.notUtf8', { row: error.row ?? 1 }), exitCode: ExitCode.usage };
      case 'not-text':
        return { message: msg('sheet.notText', { offset: p.offset, line: p.line }), exitCode: ExitCode.usage };
      case 'unknown-encoding':
        return { message: msg('sheet.unknownEncoding', { name: p.name }), exitCode: ExitCode.usage };
      case 'quote-not-closed':
        return { message: msg('sheet.badCsv', { line: p.line, reason: msg('sheet.quoteNotClosed', { line: p.line }) }), exitCode: ExitCode.invalid };
      case 'bad-csv':
        return { message: msg('sheet.badCsv', { line: p.line, reason: p.reason }), exitCode: ExitCode.invalid };
      case 'bad-xlsx':
        return { message: msg('sheet.badXlsx', { reason: p.reason }), exitCode: ExitCode.usage };
      case 'no-sheet':
        return { message: msg('sheet.noSheet', { name: quote(p.name), names: p.names.map(quote).join(', ') }), exitCode: ExitCode.usage };
      case 'not-zip':
        return { message: msg('sheet.notZip'), exitCode: ExitCode.usage };
      case 'zip-bomb':
        return {
          message: p.limit !== null ? msg('sheet.zipBombTotal', { part: p.part, limit: sizeText(p.limit) }) : msg('sheet.zipBombRatio', { part: p.part, ratio: p.ratio ?? 0 }),
          exitCode: ExitCode.usage,
        };
      case 'cell-too-large': {
        const limit = sizeText(p.limit);
        const message =
          p.cell !== null ? msg('sheet.cellTooLarge', { cell: p.cell, part: p.part, limit })
          : p.string !== null ? msg('sheet.stringTooLarge', { n: p.string, part: p.part, limit })
          : msg('sheet.tagTooLarge', { part: p.part, limit });
        return { message, exitCode: ExitCode.usage };
      }
      case 'stdin-too-large':
        return { message: msg('sheet.stdinTooLarge', { limit: sizeText(p.limit) }), exitCode: ExitCode.usage };
    }
  }
  return { message: problemOfFile(error, source.file), exitCode: ExitCode.usage };
}

/**
 * Every row of a sheet as a report, in order: first the header row's report (`header:
 * true`; its problems are the columns'), then one per data row. A sheet whose header lacks
 * a required column stops at the header: every row would repeat the same error.
 */
export async function* checkSheet(source: Source, format: SheetFormat, options: SheetOptions): AsyncGenerator<SheetReport | FileReport> {
  const lang = options.lang;
  const fail = (exitCode: ExitCode, message: Message): FileReport => ({ file: source.file, ok: false, errors: [{ path: FILE_PATH, message }], warnings: [], exitCode });
  if (source.problem) {
    yield fail(ExitCode.usage, source.problem);
    return;
  }
  if (source.absolute === null && options.stdin.isTTY) {
    yield fail(ExitCode.usage, msg('sheet.stdinTty'));
    return;
  }
  let rows: AsyncGenerator<RawRow>;
  try {
    rows = await rowsOf(source, format, options);
  } catch (error) {
    const { message, exitCode } = problemOfSheet(error, source);
    yield fail(exitCode, message);
    return;
  }

  let mapping: Mapping | undefined;
  /** Rows read while looking for the header. */
  const before: RawRow[] = [];
  let header: SheetReport | undefined;
  let headerSent = false;
  let dataRows = 0;
  let lastRow = 0;

  /** Choose the header among the rows read so far: the first with two known columns, else the first filled one. */
  const takeHeader = (): { report: SheetReport; rest: RawRow[] } => {
    const filled = before.filter((r) => !isEmptyRow(r.cells));
    const chosen = filled.find(looksLikeHeader) ?? (filled[0] as RawRow);
    mapping = mapHeader(chosen.cells, lang);
    const notes: Message[] = [];
    const above = filled.filter((r) => r.row < chosen.row).map((r) => r.row);
    if (above.length > 0) notes.push(msg('sheet.titleRows', { rows: rowRanges(above), header: chosen.row }));
    const ok = mapping.errors.length === 0;
    const report: SheetReport = {
      file: source.file, row: chosen.row, header: true, ok, errors: mapping.errors, warnings: mapping.warnings,
      exitCode: ok ? ExitCode.ok : ExitCode.invalid, notes, ...(options.keepCells ? { cells: mapping.shown } : {}),
    };
    lastRow = chosen.row;
    return { report, rest: before.filter((r) => r.row > chosen.row) };
  };

  // Rows skipped since the last data row: the gaps of empty rows (as ranges) and merged rows.
  let emptyGaps: string[] = [];
  let mergedRows: number[] = [];
  const noteGapBefore = (row: number): void => {
    // Every row between two read rows is empty (or not stored by Excel, which is the same).
    if (row > lastRow + 1) emptyGaps.push(row - 1 === lastRow + 1 ? `${lastRow + 1}` : `${lastRow + 1}-${row - 1}`);
  };

  const take = (raw: RawRow): SheetReport | undefined => {
    if (isEmptyRow(raw.cells)) return undefined;
    noteGapBefore(raw.row);
    lastRow = raw.row;
    if (raw.merged) {
      mergedRows.push(raw.row);
      return undefined;
    }
    dataRows += 1;
    const report: SheetReport = { file: source.file, ...checkRow(raw, mapping as Mapping, options) };
    // Message on the next data row: the blank (or merged) rows at the end of a sheet are no news.
    const notes: Message[] = [];
    if (emptyGaps.length > 0) notes.push(msg('sheet.emptyRows', { rows: emptyGaps.join(', ') }));
    if (mergedRows.length > 0) notes.push(msg('sheet.mergedRows', { rows: rowRanges(mergedRows) }));
    if (notes.length > 0) report.notes = notes;
    emptyGaps = [];
    mergedRows = [];
    return report;
  };

  /** The reports of these rows, the header's first (once, before the first row's). */
  function* reportsOf(ready: readonly RawRow[]): Generator<SheetReport> {
    for (const row of ready) {
      const report = take(row);
      if (report === undefined) continue;
      if (!headerSent) {
        headerSent = true;
        yield header as SheetReport;
      }
      yield report;
    }
  }

  try {
    for await (const raw of rows) {
      let ready: RawRow[] = [raw];
      if (header === undefined) {
        before.push(raw);
        const filled = before.filter((r) => !isEmptyRow(r.cells)).length;
        if (!looksLikeHeader(raw) && filled < HEADER_SEARCH_ROWS) continue;
        const taken = takeHeader();
        header = taken.report;
        ready = taken.rest;
        // A header without a required column stops here: every row would repeat its error.
        if (!taken.report.ok) break;
      }
      yield* reportsOf(ready);
    }
    if (header === undefined && before.some((r) => !isEmptyRow(r.cells))) {
      const taken = takeHeader();
      header = taken.report;
      yield* reportsOf(taken.rest);
    }
  } catch (error) {
    const { message, exitCode } = problemOfSheet(error, source);
    if (header === undefined) {
      yield fail(exitCode, message);
      return;
    }
    if (!headerSent) yield header;
    const row = error instanceof SheetReadError && error.row !== undefined ? error.row : lastRow + 1;
    yield { file: source.file, row, ok: false, errors: [{ path: FILE_PATH, column: null, message }], warnings: [], exitCode };
    return;
  }
  if (header === undefined) {
    yield { file: source.file, row: 1, header: true, ok: false, errors: [{ path: FILE_PATH, column: null, message: msg('sheet.noHeader') }], warnings: [], exitCode: ExitCode.invalid };
    return;
  }
  if (headerSent) return;
  // No data row (or a header with errors): the header's report is the sheet's.
  const final: SheetReport = header;
  if (final.ok && dataRows === 0) {
    final.ok = false;
    final.exitCode = ExitCode.invalid;
    final.errors = [...final.errors, { path: FILE_PATH, column: null, message: msg('sheet.noRows') }];
  }
  yield final;
}

function looksLikeHeader(raw: RawRow): boolean {
  let known = 0;
  for (const cell of raw.cells) if (columnOfHeader(plainText(cell)) !== undefined && ++known >= 2) return true;
  return false;
}
