/**
 * The results every floor shares: a file's (or a sheet row's) validation report, where an
 * input came from, and what one submission came to. Flows make them, sheets/ and ui/ read
 * them; they live here, below both.
 */
import type { ExitCode } from '../errors.js';
import { type Message, msg } from '../i18n/index.js';
import type { Issue } from './normalize.js';
import type { Outcome } from './outcome.js';
import type { Submission } from './submission.js';

export interface Source {
  /** As shown to the operator and in --json: the path as typed (or found), `-` for stdin. */
  file: string;
  absolute: string | null;
  /** A problem found while expanding (missing path, folder without JSON). */
  problem?: Message;
}

/** Why a file cannot be read, from the system's error (ENOENT, EACCES...). */
export function problemOfFile(error: unknown, path: string): Message {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return msg('input.missing', { path });
    case 'EACCES':
    case 'EPERM':
      return msg('input.denied', { path });
    case 'EISDIR':
      return msg('input.isFolder', { path });
    default:
      return msg('input.unreadable', { path, cause: code ?? String(error) });
  }
}

export interface FileReport {
  file: string;
  ok: boolean;
  errors: Issue[];
  warnings: Issue[];
  /** The exit code this file alone would give: 0, 1 (invalid) or 2 (unreadable). */
  exitCode: ExitCode;
  /** The normalised submission, when valid. */
  value?: Submission;
  /** The proposal's id as the input gives it (valid or not), when it gives one. */
  idProposta?: string;
  /** A spreadsheet row (src/sheets): its number as the sheet shows it (header = row 1). */
  row?: number;
  /** A spreadsheet's header row: its problems are the columns' (missing, unknown). */
  header?: boolean;
  /** What was skipped, for people (empty rows, a title above the header); never a failure. */
  notes?: Message[];
}

export interface ApprovalResult {
  outcome: 'approved' | 'denied' | 'cancelled';
  status: string | null;
  reason: string | null;
  source: 'live' | 'store';
}

export interface SubmitResult {
  file: string;
  /** A spreadsheet row: its number as the sheet shows it (header = row 1). */
  row?: number;
  outcome: Outcome;
  httpStatus: number | null;
  idContrato: string | null;
  erros: { codigo: string; msg: string }[];
  /** The approval result, with --wait. */
  result: ApprovalResult | null;
  /** What happened, for people (the record keeps its English). */
  message: Message;
  /** What to do next, when something went wrong. */
  hint?: Message;
  exitCode: ExitCode;
  warnings: Issue[];
  errors: Issue[];
  /** Requests made for this submission (retries included). */
  attempts: number;
  /** From its claim to its answer (and, with --wait, to its result); JUnit's time. */
  elapsedMs?: number;
  idProposta: string | null;
}
