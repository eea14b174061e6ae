import type { Context, HistoryInput } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { submissionRecords } from '../flows/journal-view.js';
import { resolveHome } from '../store/home.js';
import { readJournal } from '../store/journal.js';
import { renderHistory } from '../ui/history-output.js';

export async function run(input: HistoryInput, ctx: Context): Promise<number> {
  const records = submissionRecords(readJournal(resolveHome(ctx.env)))
    .filter((r) => input.proposal === undefined || r.idProposta === input.proposal)
    .filter((r) => input.contract === undefined || r.answer?.idContrato === input.contract)
    .reverse()
    .slice(0, input.limit);
  renderHistory(ctx.io, records);
  return ExitCode.ok;
}
