import type { Issue } from '../domain/issue.js';
import type { FileReport } from '../flows/validate-files.js';
import type { Io } from './io.js';
import { type LabelLang, entryLabel, issueWhere, sheetIssueJson } from './sheet-labels.js';
import { createTheme } from './theme.js';

/** Files listed one by one up to this count; past it, only files with problems. */
const LIST_CLEAN_FILES_UP_TO = 20;

/** Output is encoded into Buffers of this size: written when full (text) or kept (--json). */
const CHUNK_BYTES = 64 * 1024;

/** Text gathered up to this length, then encoded. */
const PENDING_CHARS = 8 * 1024;

export interface ValidationOutput {
  /** One file's report, in input order. */
  add(report: FileReport): void;
  /** Everything that is still to be written, and the summary. */
  finish(): void;
}

/**
 * --json: the contract's document, `{"ok", "files"}`, on stdout once every file is known
 * (`ok` comes first). Otherwise people's text on stderr, grouped by file, as it comes.
 *
 * Nothing is kept per report: the --json text waits in Buffers, off the V8 heap, so
 * memory stays flat however many files a run checks.
 */
export function createValidationOutput(io: Io, options: { strict: boolean; total: number; lang?: LabelLang }): ValidationOutput {
  return io.json ? jsonOutput(io) : textOutput(io, options);
}

function jsonOutput(io: Io): ValidationOutput {
  const bytes = new ByteChunks();
  let ok = true;
  let count = 0;
  return {
    add(r) {
      ok &&= r.ok;
      if (isQuietHeader(r)) return;
      if (count++ > 0) bytes.append(',');
      bytes.append(r.row === undefined ? reportJson(r) : rowReportJson(r));
    },
    finish() {
      bytes.append(']}\n');
      io.stdout.write(Buffer.concat([Buffer.from(`{"ok":${ok},"files":[`, 'utf8'), ...bytes.end()]));
    },
  };
}

/**
 * Text encoded into 64 KiB Buffers, off the V8 heap, a few KiB at a time: few calls into
 * the encoder, and little text left on the heap to survive young-generation collections
 * (a string gathered up to 64 KiB was copied at each, then promoted).
 */
class ByteChunks {
  private readonly sealed: Buffer[] = [];
  private current = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private pending = '';

  append(text: string): void {
    this.pending += text;
    if (this.pending.length >= PENDING_CHARS) this.encode();
  }

  /** Whether some chunks are full and waiting for takeFull(). */
  get hasFull(): boolean {
    return this.sealed.length > 0;
  }

  /** The full chunks, handed over; the one being filled stays. */
  takeFull(): Buffer[] {
    return this.sealed.splice(0);
  }

  /** Everything appended and not yet taken, in order. */
  end(): Buffer[] {
    this.encode();
    this.seal();
    return this.takeFull();
  }

  private encode(): void {
    const text = this.pending;
    this.pending = '';
    // At most 3 bytes per UTF-16 unit: what may not fit starts a new chunk.
    if (this.used + text.length * 3 > this.current.length) {
      this.seal();
      if (text.length * 3 > this.current.length) {
        this.sealed.push(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.current.write(text, this.used, 'utf8');
  }

  private seal(): void {
    if (this.used === 0) return;
    this.sealed.push(this.current.subarray(0, this.used));
    this.current = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
  }
}

/**
 * JSON.stringify({ file, ok, errors, warnings }) written out: the same bytes, without
 * walking a new object per file (a tenth of `validate --json` over 10,000 files).
 */
function reportJson(r: Pick<FileReport, 'file' | 'ok' | 'errors' | 'warnings'>): string {
  return `{"file":${jsonString(r.file)},"ok":${r.ok},"errors":${issuesJson(r.errors)},"warnings":${issuesJson(r.warnings)}}`;
}

/** A spreadsheet row: `row`, and `column` in each issue (cli-contract.md, "Spreadsheets"). */
function rowReportJson(r: FileReport): string {
  return JSON.stringify({
    file: r.file,
    row: r.row,
    ...(r.header ? { header: true } : {}),
    ok: r.ok,
    errors: r.errors.map(sheetIssueJson),
    warnings: r.warnings.map(sheetIssueJson),
    ...(r.notes?.length ? { notes: r.notes } : {}),
  });
}

/** A sheet's header row with nothing to say is not an entry of the output. */
function isQuietHeader(r: FileReport): boolean {
  return r.header === true && r.errors.length === 0 && r.warnings.length === 0 && !r.notes?.length;
}

function issuesJson(issues: readonly Issue[]): string {
  if (issues.length === 0) return '[]';
  let json = '[';
  for (let i = 0; i < issues.length; i++) json += `${i === 0 ? '' : ','}${issueJson(issues[i] as Issue)}`;
  return `${json}]`;
}

/**
 * The JSON of issues already written, by message then path: a batch repeats a few warnings
 * and errors over and over (every file with both bank data and a Pix key has the same one).
 * Bounded: emptied when it holds this many entries (one message can come with many paths:
 * "unknown field" for every made-up field name).
 */
const issueJsonByMessage = new Map<string, Map<string, string>>();
const ISSUE_JSON_MEMO_LIMIT = 1_000;
let issueJsonEntries = 0;

function issueJson(issue: Issue): string {
  let byPath = issueJsonByMessage.get(issue.message);
  let json = byPath?.get(issue.path);
  if (json === undefined) {
    json = `{"path":${jsonString(issue.path)},"message":${jsonString(issue.message)}}`;
    if (issueJsonEntries >= ISSUE_JSON_MEMO_LIMIT) {
      issueJsonByMessage.clear();
      issueJsonEntries = 0;
      byPath = undefined;
    }
    if (byPath === undefined) issueJsonByMessage.set(issue.message, (byPath = new Map()));
    byPath.set(issue.path, json);
    issueJsonEntries += 1;
  }
  return json;
}

/** How many issues' JSON the memo holds now (its bound is tested). */
export function issueJsonMemoSize(): number {
  return issueJsonEntries;
}

/** What JSON.stringify escapes in a string: quote, backslash, controls, lone surrogates (any surrogate, to be safe). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(text), quoting directly the strings it would not change (nearly all). */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function textOutput(io: Io, options: { strict: boolean; total: number; lang?: LabelLang }): ValidationOutput {
  const t = createTheme(io);
  const listClean = options.total <= LIST_CLEAN_FILES_UP_TO;
  const bytes = new ByteChunks();
  let files = 0;
  let rows = 0;
  let valid = 0;
  let errors = 0;
  let warnings = 0;
  const line = (text: string): void => {
    bytes.append(`${text}\n`);
    if (bytes.hasFull) for (const chunk of bytes.takeFull()) io.stderr.write(chunk);
  };
  const issues = (report: FileReport): void => {
    for (const e of report.errors) line(`    ${t.error('error  ')} ${t.path(issueWhere(e))}: ${e.message}`);
    for (const w of report.warnings) {
      const label = options.strict ? t.error('warning') : t.warning('warning');
      line(`    ${label} ${t.path(issueWhere(w))}: ${w.message}`);
    }
    for (const note of report.notes ?? []) line(`    ${t.muted('note   ')} ${note}`);
  };
  /** A sheet's header row: its column problems count as the file's (a missing column fails the file). */
  const sheetHeader = (report: FileReport): void => {
    errors += report.errors.length;
    warnings += report.warnings.length;
    if (!report.ok) files += 1;
    line(`${report.ok ? t.muted('•') : t.error('✗')} ${t.strong(entryLabel(report, options.lang))}`);
    issues(report);
  };
  return {
    add(report) {
      if (report.header) {
        if (!isQuietHeader(report)) sheetHeader(report);
        return;
      }
      files += 1;
      if (report.row !== undefined) rows += 1;
      if (report.ok) valid += 1;
      errors += report.errors.length;
      warnings += report.warnings.length;
      if (report.ok && report.warnings.length === 0) {
        if (listClean) line(`${t.success('✓')} ${report.file}`);
        return;
      }
      line(`${report.ok ? t.success('✓') : t.error('✗')} ${t.strong(entryLabel(report, options.lang))}`);
      issues(report);
    },
    finish() {
      const counted = rows === files && rows > 0 ? `${rows} row${rows === 1 ? '' : 's'}` : `${files} file${files === 1 ? '' : 's'}`;
      const summary = `${counted}: ${valid} valid, ${files - valid} invalid (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${options.strict && warnings ? ', counted as errors with --strict' : ''})`;
      line(valid === files ? t.success(summary) : t.error(summary));
      for (const chunk of bytes.end()) io.stderr.write(chunk);
    },
  };
}
