/**
 * What `runs`, `runs show` and `runs wait` say, and the run id a `submit` names at its start
 * and end (docs/cli-contract.md, "Runs"): --json documents on stdout, lines for people. A
 * reason may quote a person's data: masked unless --reveal.
 */
import { type Lang, type MessageKey, type Voice, formatLocalTime, localTime, say } from '../i18n/index.js';
import { ACCEPTED_PARTS, type Ledger, LEDGER_PARTS, type LedgerPart, ledgerPart } from '../domain/report.js';
import type { RunInputRecord, RunRecord } from '../record/record.js';
import { isLive, type RunView } from '../flows/runs.js';
import type { Io } from './io.js';
import { personalText } from './personal.js';
import { printable } from './printable.js';
import { createTheme } from './theme.js';
import { writeWrapped } from './wrap.js';

/** `run r-…` on stderr as a submit starts; a plain line, not a --json document. */
export function renderRunStarted(io: Io, id: string): void {
  io.stderr.write(`${createTheme(io).muted(say(io, 'runs.started', { id }))}\n`);
}

/** The run's end, with the two commands each on a line of its own (copied whole, never broken). */
export function renderRunEnded(io: Io, id: string): void {
  writeWrapped(io.stderr, `${createTheme(io).muted(say(io, 'runs.ended', { id }))}\n`);
}

/** A part of the ledger, as people read it. */
export const partName = (lang: Lang | Voice, part: LedgerPart | 'inputs'): string => say(lang, `runs.part_${part}` as MessageKey);

/** The parts of a ledger in its order, with their counts: what the chart and the brief line show. */
export const CHART_PARTS = ['approved', 'denied', 'cancelled', 'waiting', 'unknown', 'rejected', 'notFound', 'notSent', 'skipped', 'invalid'] as const satisfies readonly LedgerPart[];

/** The two identities written out: `300 inputs = 12 invalid + ...` and `270 accepted = ...`. */
export function ledgerLines(lang: Lang | Voice, ledger: Ledger): [string, string] {
  const n = Object.fromEntries(Object.entries(ledger).map(([k, v]) => [k, v.toLocaleString(typeof lang === 'string' ? lang : lang.lang)]));
  return [say(lang, 'runs.inputsLine', n), say(lang, 'runs.acceptedLine', n)];
}

/** The ledger in brief: its nonzero parts. */
function brief(lang: Lang, ledger: Ledger): string {
  const parts = CHART_PARTS.filter((part) => ledger[part] > 0).map((part) => `${ledger[part]} ${partName(lang, part)}`);
  return [`${ledger.inputs} ${partName(lang, 'inputs')}`, ...parts].join(' · ');
}

const ledgerJson = (ledger: Ledger) => ledger;

/** How a run stands: ended, running, or stopped without ending (its process gone). */
function stateOf(lang: Lang, run: RunRecord): string {
  if (run.endedAt !== null) return say(lang, 'runs.stateEnded', { at: localTime(run.endedAt) });
  const where = { pid: run.pid, host: run.by.host ?? '?' };
  return say(lang, isLive(run) ? 'runs.stateRunning' : 'runs.stateDead', where);
}

export function renderRuns(io: Io, runs: ReadonlyArray<{ run: RunRecord; ledger: Ledger }>): void {
  if (io.json) {
    const doc = runs.map(({ run, ledger }) => ({ id: run.id, startedAt: run.startedAt, endedAt: run.endedAt, profile: run.profile, baseUrl: run.baseUrl, ledger: ledgerJson(ledger) }));
    io.stdout.write(`${JSON.stringify({ ok: true, runs: doc })}\n`);
    return;
  }
  const t = createTheme(io);
  if (runs.length === 0) {
    io.stderr.write(`${t.muted(say(io, 'runs.none'))}\n`);
    return;
  }
  const lines = runs.map(({ run, ledger }) => `${t.strong(run.id)}  ${t.muted(formatLocalTime(run.startedAt))}  ${printable(run.profile)}  ${brief(io.lang, ledger)}${run.endedAt === null ? `  ${t.warning(stateOf(io.lang, run))}` : ''}`);
  io.stdout.write(`${lines.join('\n')}\n`);
}

/** Why an input came to what it did, in the service's words (or ours): masked unless --reveal. */
export function reasonOf(voice: Pick<Voice, 'reveal'>, input: RunInputRecord): string | null {
  let reason: string | null = null;
  if (input.result?.outcome === 'denied' || input.result?.outcome === 'cancelled') reason = input.result.reason ?? input.result.status;
  else if (input.effective === 'rejected' || input.effective === 'not_found') reason = input.erros.map((e) => `${e.codigo}: ${e.msg}`).join('; ') || input.message;
  else if (input.effective === 'invalid' || input.effective === 'skipped' || input.effective === 'not_sent') reason = input.reason;
  else if (input.effective === 'unknown') reason = input.message;
  return personalText(voice, reason);
}

/** The --json of one input. */
export function inputJson(voice: Pick<Voice, 'reveal'>, input: RunInputRecord) {
  return { file: input.file, row: input.row, idProposta: input.idProposta, outcome: input.effective, idContrato: input.idContrato, result: input.result?.outcome ?? null, reason: reasonOf(voice, input) };
}

export type NeedsGroup = 'denied' | 'unknown' | 'waiting';

/** The inputs that need a person, grouped: denied or cancelled, unknown, waiting longer than `usualMs`. */
export function needingPerson(view: RunView, usualMs: number): Array<{ group: NeedsGroup; inputs: RunInputRecord[] }> {
  const now = Date.parse(view.run.readAt);
  const groups: Record<NeedsGroup, RunInputRecord[]> = { denied: [], unknown: [], waiting: [] };
  for (const input of view.inputs) {
    const part = ledgerPart(input.effective, input.result?.outcome ?? null);
    if (part === 'denied' || part === 'cancelled') groups.denied.push(input);
    else if (part === 'unknown') groups.unknown.push(input);
    else if (part === 'waiting' && input.sentAt !== null && now - Date.parse(input.sentAt) > usualMs) groups.waiting.push(input);
  }
  return (Object.keys(groups) as NeedsGroup[]).filter((group) => groups[group].length > 0).map((group) => ({ group, inputs: groups[group] }));
}

const GROUP_KEYS: Record<NeedsGroup, MessageKey> = { denied: 'runs.groupDenied', unknown: 'runs.groupUnknown', waiting: 'runs.groupWaiting' };

/** A group's heading, in `lang`. */
export const groupHeading = (lang: Lang | Voice, group: NeedsGroup, n: number, usualMs: number): string =>
  say(lang, GROUP_KEYS[group], { n, seconds: Math.round(usualMs / 1000) });

/** Where an input came from: a file, or a sheet's row. */
export const whereOf = (input: Pick<RunInputRecord, 'file' | 'row'>): string => (input.row === null ? input.file : `${input.file}:${input.row}`);

/** Inputs listed per group for people; --json and the reports hold them all. */
const LISTED = 100;

/** `runs show`: the run, its ledger checked, and what needs a person; --json with every input. */
export function renderRun(io: Io, view: RunView, usualMs: number): void {
  const { run, ledger } = view;
  if (io.json) {
    const { id, startedAt, endedAt, command, profile, baseUrl, by } = run;
    const doc = { id, startedAt, endedAt, command, profile, baseUrl, by, ledger: ledgerJson(ledger), inputs: view.inputs.map((input) => inputJson(io, input)) };
    io.stdout.write(`${JSON.stringify({ ok: true, run: doc })}\n`);
    return;
  }
  const t = createTheme(io);
  const who = [run.by.user && run.by.host ? `${run.by.user}@${run.by.host}` : (run.by.user ?? run.by.host), run.by.ci ? say(io, 'runs.ciJob', { job: run.by.ci }) : null].filter(Boolean).join(', ');
  const [inputsLine, acceptedLine] = ledgerLines(io, ledger);
  const lines = [
    `${t.strong(say(io, 'runs.started', { id: run.id }))}  ${t.muted(formatLocalTime(run.startedAt))}  ${stateOf(io.lang, run)}`,
    `  ${printable(run.profile)}  ${printable(run.baseUrl)}  ${say(io, 'runs.by', { who: printable(who) })}`,
    `  ${t.muted(printable(run.command))}`,
    inputsLine,
    acceptedLine,
    t.success(`✓ ${say(io, 'runs.balances')}`),
  ];
  const groups = needingPerson(view, usualMs);
  if (groups.length === 0) lines.push(t.muted(say(io, 'runs.nothingNeedsPerson')));
  else {
    lines.push(t.strong(say(io, 'runs.needsPerson')));
    for (const { group, inputs } of groups) {
      lines.push(`  ${t.warning(groupHeading(io, group, inputs.length, usualMs))}`);
      for (const input of inputs.slice(0, LISTED)) {
        const reason = reasonOf(io, input);
        lines.push(`    ${printable(whereOf(input))}  ${t.strong(printable(input.idProposta ?? '—'))}${input.idContrato ? `  ${input.idContrato}` : ''}${reason ? `  ${printable(reason)}` : ''}`);
      }
      if (inputs.length > LISTED) lines.push(`    ${t.muted(say(io, 'runs.andMore', { n: inputs.length - LISTED }))}`);
    }
  }
  io.stdout.write(`${lines.join('\n')}\n`);
}

/** `runs wait`: what it waits for, on stderr (with --json too: a CI log shows it while stdout waits for the document). */
export function renderRunWaiting(io: Io, id: string, n: number, timeoutMs: number): void {
  io.stderr.write(`${createTheme(io).muted(say(io, 'runs.waiting', { id, n, seconds: Math.round(timeoutMs / 1000) }))}\n`);
}

/** The parts of the ledger, in order: for tables. */
export const ALL_PARTS: ReadonlyArray<LedgerPart | 'inputs'> = ['inputs', ...LEDGER_PARTS, ...ACCEPTED_PARTS];
