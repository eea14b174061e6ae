/**
 * Turning the paths an operator typed into submission documents: files, `-` for stdin,
 * folders (every *.json, *.csv and *.xlsx below, sorted). Reads are synchronous on purpose: readFileSync is
 * four times faster than fs/promises for thousands of small files (docs/performance.md).
 */
import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ExitCode } from '../errors.js';
import { type Issue, ROOT_PATH } from '../domain/issue.js';
import { type Message, type MessageKey, type Value, msg, say } from '../i18n/index.js';
import { type Source, problemOfFile } from '../domain/report.js';

/** A submission file is a small object; anything past this is a mistake, not a submission. */
export const MAX_FILE_BYTES = 1024 * 1024;

export const FILE_PATH = '(file)';


/** Expand files, `-` and folders, in the order given; folders sorted by path. */
export function expandInputs(paths: readonly string[], cwd: string): Source[] {
  const sources: Source[] = [];
  for (const path of paths) {
    if (path === '-') {
      sources.push({ file: '-', absolute: null });
      continue;
    }
    const absolute = resolve(cwd, path);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(absolute).isDirectory();
    } catch (error) {
      sources.push({ file: path, absolute, problem: problemOfFile(error, path) });
      continue;
    }
    if (!isDirectory) {
      sources.push({ file: path, absolute });
      continue;
    }
    const found = listInputFiles(absolute);
    if (found.length === 0) {
      sources.push({ file: path, absolute, problem: msg('input.emptyFolder', { path }) });
      continue;
    }
    // join() once per folder, not per file: 20,000 joins cost ~30 ms of a 10,000-file run.
    // The listed paths are plain names (no ".", ".." or "//"), so a prefix is the same.
    const shown = prefixOf(path);
    const full = prefixOf(absolute);
    for (const rel of found) sources.push({ file: shown + rel, absolute: full + rel });
  }
  return sources;
}

/** What join(folder, name) puts before `name`: the folder, normalised, and a separator ('' for "."). */
function prefixOf(folder: string): string {
  return join(folder, 'x').slice(0, -1);
}

/** Paths relative to `folder` of every input file below it (JSON and sheets), sorted. */
function listInputFiles(folder: string): string[] {
  const files: string[] = [];
  collectInputFiles(folder, '', files);
  return files.sort();
}

/**
 * Walked by hand: readdirSync's `recursive` goes through links to folders on Node 22 and
 * not on Node 20, so the same command listed different files (and a link cycle could never
 * end). This goes into folders, never into links to folders, on every version.
 */
function collectInputFiles(dir: string, relative: string, files: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const name = entry.name;
    if (entry.isDirectory()) {
      collectInputFiles(join(dir, name), `${relative}${name}/`, files);
      continue;
    }
    if (!isInputName(name)) continue;
    // A link to a file counts; a link to anything else (or a dangling one) does not.
    if (!entry.isFile() && !(entry.isSymbolicLink() && isFileBehindLink(join(dir, name)))) continue;
    files.push(relative + name);
  }
}

/**
 * `*.json`, `*.csv` and `*.xlsx` in any case (`A.JSON` too), without a lower-cased copy of
 * every name. Not the files a run leaves beside a sheet (`<name>.resultados.csv|xlsx` and
 * its `.resultados.parcial.csv`), nor the lock file Excel keeps beside an open workbook
 * (`~$planilha.xlsx`): they are no submissions.
 */
function isInputName(name: string): boolean {
  if (name.endsWith('.json') || name.slice(-5).toLowerCase() === '.json') return true;
  const lower = name.toLowerCase();
  if (!lower.endsWith('.csv') && !lower.endsWith('.xlsx')) return false;
  return !name.startsWith('~$') && !lower.includes('.resultados.');
}

function isFileBehindLink(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export type Loaded =
  | { ok: true; file: string; document: unknown; text: string }
  | { ok: false; file: string; exitCode: ExitCode; errors: Issue[] };

export interface StdinReader {
  isTTY?: boolean;
  fd?: number;
}

/** Read and JSON-parse one source. Never throws: a failure is a result with its exit code. */
export function loadSource(source: Source, stdin: StdinReader): Loaded {
  const fail = (exitCode: ExitCode, path: string, message: Message): Loaded => ({ ok: false, file: source.file, exitCode, errors: [{ path, message }] });
  if (source.problem) return fail(ExitCode.usage, FILE_PATH, source.problem);

  let text: string;
  try {
    if (source.absolute === null) {
      if (stdin.isTTY) {
        return fail(ExitCode.usage, FILE_PATH, msg('input.stdinTty'));
      }
      text = readLimited(0, 'standard input');
    } else {
      text = readSmallFile(source.absolute);
    }
  } catch (error) {
    if (error instanceof TooLargeError) return fail(ExitCode.usage, FILE_PATH, error.problem);
    return fail(ExitCode.usage, FILE_PATH, problemOfFile(error, source.file));
  }
  return parseDocument(source.file, text);
}

class TooLargeError extends Error {
  constructor(readonly problem: Message) {
    super(say('en', problem));
  }
}

/**
 * A file's text, refused from its size when over 1 MiB (without reading it). A pipe or
 * device (e.g. `<(jq ...)`) has no size to check first: it is read up to the limit.
 */
function readSmallFile(path: string): string {
  const stat = statSync(path);
  if (!stat.isFile()) {
    const fd = openSync(path, 'r');
    try {
      return readLimited(fd, path);
    } finally {
      closeSync(fd);
    }
  }
  if (stat.size > MAX_FILE_BYTES) {
    throw new TooLargeError(msg('input.tooLarge', { size: (stat.size / 1024 / 1024).toFixed(1) }));
  }
  return readFileSync(path, 'utf8');
}

function readLimited(fd: number, name: string): string {
  const chunks: Buffer[] = [];
  let total = 0;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      // A non-blocking stdin that has nothing yet: wait and try again.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if ((error as NodeJS.ErrnoException).code === 'EOF') break;
      throw error;
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_FILE_BYTES) throw new TooLargeError(msg('input.streamTooLarge', { name }));
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON.parse with a message an operator can act on: line and column of the fault. */
export function parseDocument(file: string, raw: string): Loaded {
  // A UTF-8 byte order mark is legal in a file but not in JSON text.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  try {
    return { ok: true, file, document: JSON.parse(text), text };
  } catch (error) {
    // Only here: blank text never parses, and trimming every file of a batch costs a copy.
    if (text.trim() === '') {
      return { ok: false, file, exitCode: ExitCode.invalid, errors: [{ path: ROOT_PATH, message: msg('input.empty') }] };
    }
    const message = (error as Error).message;
    const position = errorPosition(text, message);
    let where: Value = '';
    if (position !== undefined) {
      const before = text.slice(0, position);
      const line = before.split('\n').length;
      const column = position - before.lastIndexOf('\n');
      where = msg('input.at', { line, column });
    }
    // Node 20 quotes the whole input in some messages; the file's text is not repeated.
    const reason = jsonReason(
      message
        .replace(/^JSON\.parse: /, '')
        .replace(/ in JSON at position \d+.*$/s, '')
        .replace(/, ".*" is not valid JSON$/s, ''),
    );
    // A sheet piped in without --format: its first line is a header, not JSON (issue 24).
    const looksLikeCsv = file === '-' && CSV_FIRST_LINE.test(text.slice(0, text.indexOf('\n') >>> 0 || 4096));
    return {
      ok: false,
      file,
      exitCode: ExitCode.invalid,
      errors: [{ path: ROOT_PATH, message: msg(looksLikeCsv ? 'input.notJsonButCsv' : 'input.notJson', { where, reason }) }],
    };
  }
}

/** A first line of three or more fields separated by `;`, `,` or tabs, not opening a JSON value. */
const CSV_FIRST_LINE = /^(?![\s\ufeff]*[[{"])[^\n;,\t]*([;,\t])[^\n]*?\1[^\n]*/;

/** V8's reasons for a JSON.parse failure, by the start of their English text. */
const JSON_REASONS: ReadonlyArray<readonly [RegExp, MessageKey]> = [
  [/^Expected ',' or '\}' after property value/, 'validate.json.afterValue'],
  [/^Expected double-quoted property name/, 'validate.json.propertyName'],
  [/^Expected property name or '\}'/, 'validate.json.propertyOrEnd'],
  [/^Expected ',' or '\]' after array element/, 'validate.json.afterElement'],
  [/^Bad control character in string literal/, 'validate.json.controlCharacter'],
  [/^Unexpected non-whitespace character after JSON/, 'validate.json.textAfter'],
  [/^Unterminated string/, 'validate.json.unterminated'],
  [/^Unexpected end of JSON input/, 'validate.json.endOfInput'],
];

/** JSON.parse's reason as the catalogue says it; one this table does not know stays as V8 wrote it. */
function jsonReason(reason: string): Value {
  const token = /^Unexpected token '(.+?)'/.exec(reason)?.[1];
  if (token !== undefined) return msg('validate.json.token', { token });
  const known = JSON_REASONS.find(([pattern]) => pattern.test(reason));
  return known ? msg(known[1]) : reason;
}

/**
 * Where JSON.parse failed. Node 20 gives no position for "Unexpected token" errors, so
 * find the shortest prefix that already fails before its end (a binary search of parses).
 */
function errorPosition(text: string, message: string): number | undefined {
  const given = /position (\d+)/.exec(message)?.[1];
  if (given !== undefined) return Number(given);
  const failsInside = (length: number): boolean => {
    const prefix = text.slice(0, length);
    try {
      JSON.parse(prefix);
      return false;
    } catch (error) {
      const m = (error as Error).message;
      if (/end of JSON input/.test(m)) return false;
      const at = /position (\d+)/.exec(m)?.[1];
      return at === undefined ? true : Number(at) < length;
    }
  };
  let low = 1;
  let high = text.length;
  if (!failsInside(high)) return undefined;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (failsInside(mid)) high = mid;
    else low = mid + 1;
  }
  return low - 1;
}
