/**
 * Reading the journal as submissions: each `submission` line joined with its `answer`
 * and the approval result (a `result` line, or a listener `delivery` for its contract).
 */
import type { JournalEntry } from '../store/journal.js';
import { isFinal } from './watch-session.js';

type Line<K extends JournalEntry['kind']> = Extract<JournalEntry, { kind: K }>;

/** A `submission` line, with its `answer` line and its result when the journal has them. */
export interface SubmissionRecord extends Omit<Line<'submission'>, 'kind' | 'at'> {
  sentAt: string;
  answer?: Omit<Line<'answer'>, 'kind' | 'ref'>;
  result?: Pick<Line<'result'>, 'at' | 'outcome' | 'status' | 'reason'>;
}

/** Every submission of the journal, oldest first, with its answer and result. */
export function submissionRecords(entries: readonly JournalEntry[]): SubmissionRecord[] {
  const records: SubmissionRecord[] = [];
  const byRef = new Map<string, SubmissionRecord>();
  const byContract = new Map<string, SubmissionRecord>();
  const results = new Map<string, SubmissionRecord['result']>();
  for (const entry of entries) {
    switch (entry.kind) {
      case 'submission': {
        const record: SubmissionRecord = {
          ref: entry.ref,
          file: entry.file,
          idProposta: entry.idProposta,
          bodyHash: entry.bodyHash,
          profile: entry.profile,
          baseUrl: entry.baseUrl,
          sentAt: entry.at,
        };
        records.push(record);
        byRef.set(entry.ref, record);
        break;
      }
      case 'answer': {
        const record = byRef.get(entry.ref);
        if (!record) break;
        record.answer = {
          at: entry.at,
          outcome: entry.outcome,
          httpStatus: entry.httpStatus,
          idContrato: entry.idContrato,
          erros: entry.erros,
          ...(entry.message === undefined ? {} : { message: entry.message }),
        };
        if (entry.idContrato) {
          byContract.set(entry.idContrato, record);
          const early = results.get(entry.idContrato);
          if (early && !record.result) record.result = early;
        }
        break;
      }
      case 'result':
      case 'delivery': {
        if (!entry.idContrato || !isFinal(entry.outcome)) break;
        const result = { at: entry.at, outcome: entry.outcome, status: entry.status, reason: entry.reason };
        // A delivery can be journaled before the answer that names its contract.
        if (!results.has(entry.idContrato)) results.set(entry.idContrato, result);
        const record = byContract.get(entry.idContrato);
        if (record && !record.result) record.result = result;
        break;
      }
    }
  }
  return records;
}

export type GuardState =
  | { kind: 'free' }
  | { kind: 'in_progress'; record: SubmissionRecord }
  | { kind: 'unanswered'; record: SubmissionRecord }
  | { kind: 'unknown'; record: SubmissionRecord };

/**
 * Whether a proposal may be sent again, from its latest submission: accepted without a
 * result yet (in progress), sent without a recorded answer (the process died), or sent
 * with an answer that leaves it unknown whether the contract exists.
 */
export function guardStateOf(latest: SubmissionRecord | undefined): GuardState {
  if (!latest) return { kind: 'free' };
  if (!latest.answer) return { kind: 'unanswered', record: latest };
  if (latest.answer.outcome === 'unknown') return { kind: 'unknown', record: latest };
  if (latest.answer.outcome === 'accepted' && !latest.result) return { kind: 'in_progress', record: latest };
  return { kind: 'free' };
}

/** The latest submission of each proposal. */
export function latestByProposal(records: readonly SubmissionRecord[]): Map<string, SubmissionRecord> {
  const latest = new Map<string, SubmissionRecord>();
  for (const record of records) latest.set(record.idProposta, record);
  return latest;
}
