/**
 * What `store prune` and `store forget` say: a --json document on stdout, or lines for
 * people on stderr. The CPF being forgotten is a person's data too: masked unless --reveal.
 */
import { type Message, localTime, msg, personal, say } from '../i18n/index.js';
import type { DeletionRecord, ForgetReport, PruneReport } from '../record/record.js';
import type { Io } from './io.js';
import { personalValue } from './personal.js';
import { createTheme } from './theme.js';

export function renderPruned(io: Io, report: PruneReport): void {
  if (io.json) {
    const { before, deliveries, submissions, results } = report;
    io.stdout.write(`${JSON.stringify({ ok: true, before, deleted: { deliveries, submissions, results } })}\n`);
    return;
  }
  const count = (n: number, one: Message['key'], many: Message['key']): string => say(io, n === 1 ? one : many, { n });
  const t = createTheme(io);
  const said = say(io, 'store.pruned', {
    before: report.before,
    deliveries: count(report.deliveries, 'store.deliveryOne', 'store.deliveryMany'),
    submissions: count(report.submissions, 'store.submissionOne', 'store.submissionMany'),
    results: count(report.results, 'store.resultOne', 'store.resultMany'),
  });
  io.stderr.write(`${t.success(said)}\n${t.muted(say(io, 'store.prunedKept'))}\n`);
}

/** Whose data: the CPF masked as everywhere, or the proposal. */
function who(report: ForgetReport): Message {
  return report.target.kind === 'cpf' ? msg('store.whoCpf', { cpf: personal('cpf', report.target.cpf) }) : msg('store.whoProposal', { id: report.target.idProposta });
}

const deletionJson = (d: DeletionRecord) => ({ at: localTime(d.at), kind: d.kind, identifierHash: d.identifierHash, rows: d.rows, by: d.by });

export function renderForgotten(io: Io, report: ForgetReport): void {
  if (io.json) {
    const doc = {
      ok: true,
      dryRun: report.dryRun,
      kind: report.target.kind,
      identifier: report.target.kind === 'cpf' ? personalValue(io, 'cpf', report.target.cpf) : report.target.idProposta,
      proposals: report.proposals,
      contracts: report.contracts,
      cleared: report.rows,
      deletion: report.deletion && deletionJson(report.deletion),
      earlier: report.earlier.map(deletionJson),
    };
    io.stdout.write(`${JSON.stringify(doc)}\n`);
    return;
  }
  const t = createTheme(io);
  const { rows } = report;
  const lines: string[] = [];
  if (rows.submissions + rows.answers + rows.results + rows.deliveries + rows.runInputs === 0) {
    lines.push(say(io, 'store.forgetNothing', { who: who(report) }));
  } else {
    lines.push(say(io, report.dryRun ? 'store.forgetWouldClear' : 'store.forgetCleared', { who: who(report) }));
    const parts: Array<[number, Message['key']]> = [
      [rows.submissions, 'store.forgetSubmissions'],
      [rows.answers, 'store.forgetAnswers'],
      [rows.results, 'store.forgetResults'],
      [rows.deliveries, 'store.forgetDeliveries'],
      [rows.runInputs, 'store.forgetRunInputs'],
    ];
    for (const [n, key] of parts) if (n > 0) lines.push(`  ${say(io, key, { n })}`);
    const none = say(io, 'store.none');
    lines.push(t.muted(say(io, 'store.forgetKept', { proposals: report.proposals.join(', ') || none, contracts: report.contracts.join(', ') || none })));
  }
  for (const earlier of report.earlier) lines.push(t.muted(say(io, 'store.forgetEarlier', { at: localTime(earlier.at), rows: earlier.rows })));
  if (report.deletion) {
    const d = report.deletion;
    lines.push(t.success(say(io, 'store.forgetRecord', { at: localTime(d.at), kind: d.kind, rows: d.rows, hash: `${d.identifierHash.slice(0, 16)}…` })));
  }
  io.stderr.write(`${lines.join('\n')}\n`);
}
