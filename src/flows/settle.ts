/**
 * `econsig settle`: what the operator learned from the provider about a proposal left
 * unknown (sent, no answer: a crash, a timeout, a 5xx), recorded so the next run does the
 * right thing without --force (docs/cli-contract.md "The guard"). A contract makes the
 * newest unknown submission of the proposal at the service `accepted` with it, so the same
 * file is then reported from the store; "not sent" answers it `skipped`, which frees it.
 */
import { EconsigError, ExitCode } from '../errors.js';
import { msg, say } from '../i18n/index.js';
import type { AnswerRecord, Store, SubmissionRecord } from '../record/record.js';

export interface SettleOptions {
  idProposta: string;
  /** The service the guard keys on (settings/settings.ts, guardService). */
  service: string;
  /** The contract the provider has; null: the provider has none (not sent). */
  contract: string | null;
  now: Date;
}

/** Records the settlement; the submission settled, answered. Exit 4 (naming it) when the proposal has nothing unknown. */
export async function settleProposal(store: Store, options: SettleOptions): Promise<SubmissionRecord> {
  const { idProposta, service, contract } = options;
  const answer: AnswerRecord =
    contract === null
      ? { at: options.now.toISOString(), outcome: 'skipped', httpStatus: null, idContrato: null, erros: [], message: say('en', 'settle.recordNotSent') }
      : { at: options.now.toISOString(), outcome: 'accepted', httpStatus: null, idContrato: contract, erros: [], message: say('en', 'settle.recordContract', { contract }) };
  const settled = await store.settle({ idProposta, service, answer });
  if (settled === null) {
    throw new EconsigError(msg('settle.nothing', { id: idProposta, service }), { exitCode: ExitCode.notFound, hint: msg('settle.nothingHint', { id: idProposta }) });
  }
  return settled;
}
