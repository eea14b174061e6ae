import { ExitCode } from '../errors.js';

/**
 * The `outcome` strings of the submit `--json` contract and the exit code each one
 * gives. This table is the only place that mapping exists.
 */
export const outcomeExitCodes = {
  invalid: ExitCode.invalid,
  // A file that could not be read (missing, unreadable, a damaged sheet): exit 2 (issue 24).
  unreadable: ExitCode.usage,
  accepted: ExitCode.ok,
  approved: ExitCode.ok,
  denied: ExitCode.denied,
  timeout: ExitCode.timeout,
  not_found: ExitCode.notFound,
  rejected: ExitCode.rejected,
  unauthorized: ExitCode.auth,
  rate_limited: ExitCode.rateLimited,
  unavailable: ExitCode.unavailable,
  // Sent, but no answer came: the contract may exist. Same code as an outage.
  unknown: ExitCode.unavailable,
  // Refused by the local in-progress guard (docs/cli-contract.md: exit 5).
  skipped: ExitCode.rejected,
} as const satisfies Record<string, ExitCode>;

export type Outcome = keyof typeof outcomeExitCodes;

export const outcomes = Object.keys(outcomeExitCodes) as Outcome[];

/** The exit code of one outcome. */
export function exitCodeFor(outcome: Outcome): ExitCode {
  return outcomeExitCodes[outcome];
}

/**
 * The exit code of a batch: 0 when every item succeeded, otherwise the code of the first
 * item, in input order, that did not (docs/cli-contract.md, "Exit codes").
 */
export function firstFailure(codesInOrder: Iterable<number>): number {
  for (const code of codesInOrder) if (code !== ExitCode.ok) return code;
  return ExitCode.ok;
}

/** The same rule over outcomes. */
export function batchExitCode(outcomesInOrder: readonly Outcome[]): number {
  return firstFailure(outcomesInOrder.map(exitCodeFor));
}

/** Whether an outcome counts as success (exit 0): accepted, or approved. */
export function isSuccess(outcome: Outcome): boolean {
  return exitCodeFor(outcome) === ExitCode.ok;
}
