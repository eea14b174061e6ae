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

/**
 * A run's ledger (docs/cli-contract.md, "Runs"): where every input of one `submit` went.
 * It balances: inputs = invalid + notSent + skipped + accepted + rejected + notFound +
 * unknown, and accepted = approved + denied + cancelled + waiting. One that does not is a
 * bug (an outcome this build does not place), reported as such.
 */
export interface Ledger {
  inputs: number;
  invalid: number;
  notSent: number;
  skipped: number;
  accepted: number;
  rejected: number;
  notFound: number;
  unknown: number;
  approved: number;
  denied: number;
  cancelled: number;
  waiting: number;
}

/** The parts the inputs split into, and the parts of `accepted`. */
export const LEDGER_PARTS = ['invalid', 'notSent', 'skipped', 'accepted', 'rejected', 'notFound', 'unknown'] as const;
export const ACCEPTED_PARTS = ['approved', 'denied', 'cancelled', 'waiting'] as const;
export type LedgerPart = (typeof LEDGER_PARTS)[number] | (typeof ACCEPTED_PARTS)[number];

/**
 * Where an input goes in the ledger, by the outcome that counts for it (a submit outcome, or
 * `not_sent`) and, when accepted, its contract's result; null for an outcome it does not know.
 */
export function ledgerPart(effective: string, result: string | null): LedgerPart | null {
  switch (effective) {
    case 'invalid':
      return 'invalid';
    // Nothing left for the service: interrupted, a token refused, a service unreachable, too many requests.
    case 'not_sent':
    case 'unauthorized':
    case 'unavailable':
    case 'rate_limited':
      return 'notSent';
    case 'skipped':
      return 'skipped';
    case 'rejected':
      return 'rejected';
    case 'not_found':
      return 'notFound';
    case 'unknown':
      return 'unknown';
    case 'accepted':
      return result === 'approved' || result === 'denied' || result === 'cancelled' ? result : 'waiting';
    default:
      return null;
  }
}

/** The ledger of `total` inputs counted by outcome; what it cannot place is left out, so it does not balance. */
export function ledgerOf(total: number, counts: Iterable<{ effective: string; result: string | null; n: number }>): Ledger {
  const ledger: Ledger = { inputs: total, invalid: 0, notSent: 0, skipped: 0, accepted: 0, rejected: 0, notFound: 0, unknown: 0, approved: 0, denied: 0, cancelled: 0, waiting: 0 };
  for (const { effective, result, n } of counts) {
    const part = ledgerPart(effective, result);
    if (part === null) continue;
    ledger[part] += n;
    if ((ACCEPTED_PARTS as readonly string[]).includes(part)) ledger.accepted += n;
  }
  return ledger;
}

/** Whether both identities hold. */
export function ledgerBalances(ledger: Ledger): boolean {
  const sum = (parts: readonly LedgerPart[]): number => parts.reduce((total, part) => total + ledger[part], 0);
  return ledger.inputs === sum(LEDGER_PARTS) && ledger.accepted === sum(ACCEPTED_PARTS);
}
