/**
 * The results every floor shares: a file's (or a sheet row's) validation report, where an
 * input came from, and what one submission came to. Flows make them, sheets/ and ui/ read
 * them; they live here, below both.
 */
import type { ExitCode } from '../errors.js';
import type { Said } from '../i18n/index.js';
import type { Issue } from './normalize.js';
import type { Outcome } from './outcome.js';
import type { Submission } from './submission.js';

export interface Source {
  /** As shown to the operator and in --json: the path as typed (or found), `-` for stdin. */
  file: string;
  absolute: string | null;
  /** A problem found while expanding (missing path, folder without JSON), said in the run's language later. */
  problem?: Said;
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
  /** A spreadsheet row (src/sheets): its number as the sheet shows it (header = row 1). */
  row?: number;
  /** A spreadsheet's header row: its problems are the columns' (missing, unknown). */
  header?: boolean;
  /** What was skipped, for people (empty rows, a title above the header); never a failure. */
  notes?: string[];
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
  /** What happened, for people. */
  message: string;
  /** What to do next, when something went wrong. */
  hint?: string;
  /** `message` and `hint` as keys of the people's catalogue (i18n/), where one exists. */
  said?: Said;
  hintSaid?: Said;
  exitCode: ExitCode;
  warnings: Issue[];
  errors: Issue[];
  /** Requests made for this submission (retries included). */
  attempts: number;
  /** From its claim to its answer (and, with --wait, to its result); JUnit's time. */
  elapsedMs?: number;
  idProposta: string | null;
}
