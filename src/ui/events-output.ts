/**
 * What `econsig events` shows: the deliveries in the store (one line each on stdout, the "N
 * more" line on stderr), one delivery whole (`events show`), a resend's lines and count.
 * --json as docs/cli-contract.md "Events" gives it. In the list, a person's data in a reason
 * or a status is masked unless --reveal; `events show` prints the body asked for by name whole.
 */
import type { CheckReport, CheckRow } from '../flows/check-receiver.js';
import type { ResendResult } from '../flows/resend-events.js';
import type { EventPage, StoredDelivery } from '../record/record.js';
import { type Lang, type MessageKey, formatLocalTime, say } from '../i18n/index.js';
import type { Io } from './io.js';
import { personalText } from './personal.js';
import { printable } from './printable.js';
import { createTheme } from './theme.js';
import { outcomeColor, outcomeText } from './watch-output.js';

/** The fields of a delivery in `events --json` (and the start of `events show --json`'s): a reason or status masked unless --reveal. */
function listed(io: Io, e: StoredDelivery) {
  return {
    id: e.id,
    receivedAt: e.receivedAt,
    webhookId: e.webhookId,
    idContrato: e.idContrato,
    idProposta: e.idProposta,
    outcome: e.outcome,
    status: personalText(io, e.status),
    reason: personalText(io, e.reason),
    verified: e.verified,
    duplicates: e.duplicates,
  };
}

/** How people name a delivery: its webhook-id, else econsig's own id. */
const nameOf = (e: Pick<StoredDelivery, 'id' | 'webhookId'>): string => e.webhookId ?? `#${e.id}`;

export function renderEvents(io: Io, page: EventPage): void {
  const lang: Lang = io.lang;
  if (io.json) {
    io.stdout.write(`${JSON.stringify({ ok: true, events: page.events.map((e) => listed(io, e)), more: page.more, moreIsAtLeast: page.more >= page.moreCap })}\n`);
    return;
  }
  const t = createTheme({ color: io.colorStdout });
  const muted = createTheme(io).muted;
  if (page.events.length === 0) {
    io.stderr.write(`${muted(say(lang, 'events.noMatch'))}\n`);
    return;
  }
  const lines = page.events.map((e) => {
    const parts = [
      t.muted(formatLocalTime(e.receivedAt)),
      t.strong(String(e.id)),
      e.webhookId === null ? t.muted('-') : printable(e.webhookId),
      e.idContrato === null ? t.muted(say(lang, 'watch.noContractId')) : printable(e.idContrato),
      e.idProposta === null ? t.muted('-') : printable(e.idProposta),
      outcomeColor(t, e.outcome)(outcomeText(lang, e.outcome, printable(personalText(io, e.status) ?? say(lang, 'watch.noStatus')))),
    ];
    if (e.reason) parts.push(printable(JSON.stringify(personalText(io, e.reason))));
    parts.push(e.verified === true ? t.success(say(lang, 'watch.verified')) : t.muted(say(lang, 'watch.unverified')));
    if (e.duplicates > 0) parts.push(t.warning(say(lang, e.duplicates === 1 ? 'events.duplicatesOne' : 'events.duplicates', { n: e.duplicates })));
    return parts.join('  ');
  });
  io.stdout.write(`${lines.join('\n')}\n`);
  if (page.more > 0) {
    const more = page.more >= page.moreCap ? say(lang, 'history.orMore', { n: page.moreCap.toLocaleString(lang) }) : page.more.toLocaleString(lang);
    io.stderr.write(`${muted(say(lang, 'events.more', { more }))}\n`);
  }
}

/** The body as people read it: JSON indented, anything else as it came. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One delivery whole. The body is what was asked for by name: shown as received, unmasked; the fields above it as the list shows them. */
export function renderEvent(io: Io, e: StoredDelivery): void {
  const lang: Lang = io.lang;
  if (io.json) {
    const event = { ...listed(io, e), headers: e.headers, body: e.payload, payloadDroppedAt: e.payloadDroppedAt, forward: e.forward };
    io.stdout.write(`${JSON.stringify({ ok: true, event })}\n`);
    return;
  }
  const t = createTheme({ color: io.colorStdout });
  const row = (label: Parameters<typeof say>[1], value: string): string => `${t.muted(`${say(lang, label)}:`.padEnd(13))} ${value}`;
  const lines = [
    row('events.labelId', String(e.id)),
    row('events.labelWebhookId', e.webhookId === null ? t.muted(say(lang, 'events.none')) : t.strong(printable(e.webhookId))),
    row('events.labelReceived', `${formatLocalTime(e.receivedAt)}  ${t.muted(e.receivedAt)}`),
    row('events.labelContract', e.idContrato === null ? t.muted(say(lang, 'watch.noContractId')) : printable(e.idContrato)),
    row('events.labelProposal', e.idProposta === null ? t.muted('-') : printable(e.idProposta)),
    row('events.labelOutcome', outcomeColor(t, e.outcome)(outcomeText(lang, e.outcome, printable(personalText(io, e.status) ?? say(lang, 'watch.noStatus'))))),
  ];
  if (e.reason) lines.push(row('events.labelReason', printable(personalText(io, e.reason))));
  lines.push(row('events.labelSignature', e.verified === true ? t.success(say(lang, 'watch.verified')) : t.muted(say(lang, 'watch.unverified'))));
  lines.push(row('events.labelDuplicates', String(e.duplicates)));
  if (e.forward) {
    const f = e.forward;
    const values = { url: printable(f.url), at: formatLocalTime(f.at) };
    lines.push(row('events.labelForward', f.httpStatus === null ? say(lang, 'events.forwardFailed', { ...values, error: printable(f.error ?? '') }) : say(lang, 'events.forwardAnswered', { ...values, status: f.httpStatus })));
  }
  lines.push(`${t.muted(`${say(lang, 'events.labelHeaders')}:`)}${e.headers === null ? ` ${t.muted(say(lang, 'events.headersNotKept'))}` : ''}`);
  for (const [name, value] of Object.entries(e.headers ?? {})) lines.push(`  ${printable(name)}: ${printable(value)}`);
  lines.push(`${t.muted(`${say(lang, 'events.labelBody')}:`)}${e.payload === null ? ` ${t.warning(say(lang, 'events.bodyDropped', { at: formatLocalTime(e.payloadDroppedAt ?? '') }))}` : ''}`);
  if (e.payload !== null) lines.push(pretty(e.payload));
  io.stdout.write(`${lines.join('\n')}\n`);
}

/** Deliveries about to be resent without a secret: they go unsigned. */
export function renderUnsigned(io: Io): void {
  const t = createTheme(io);
  io.stderr.write(`${t.warning(say(io.lang, 'run.warningLabel'))} ${say(io.lang, 'events.unsigned')}\n`);
}

/** One line per delivery as it is answered (stdout: the command's data); nothing with --json. */
export function renderResent(io: Io, r: ResendResult): void {
  if (io.json) return;
  const t = createTheme({ color: io.colorStdout });
  const what = printable(r.idContrato === null ? nameOf(r) : `${nameOf(r)}  ${r.idContrato}`);
  let line: string;
  if (r.payloadDroppedAt !== null && r.httpStatus === null && r.error === null) line = t.warning(say(io.lang, 'events.resendDropped', { what, at: formatLocalTime(r.payloadDroppedAt) }));
  else if (r.httpStatus === null) line = t.error(say(io.lang, 'events.resendNoAnswer', { what, error: printable(r.error ?? '') }));
  else line = (r.ok ? t.success : t.error)(say(io.lang, 'events.resentLine', { what, status: r.httpStatus, ms: r.ms ?? 0 }));
  io.stdout.write(`${line}\n`);
}

/** The count (stderr), and those not answered 2xx named; with --json, the whole document. */
export function renderResendSummary(io: Io, to: string, results: readonly ResendResult[]): void {
  const failed = results.filter((r) => !r.ok);
  const sent = results.filter((r) => r.payloadDroppedAt === null || r.httpStatus !== null || r.error !== null).length;
  if (io.json) {
    io.stdout.write(`${JSON.stringify({ ok: failed.length === 0, to, sent, results })}\n`);
    return;
  }
  const t = createTheme(io);
  if (results.length === 0) {
    io.stderr.write(`${t.muted(say(io.lang, 'events.nothingToResend'))}\n`);
    return;
  }
  io.stderr.write(`${say(io.lang, 'events.resentSummary', { sent, n: results.length, url: printable(to), ok: results.length - failed.length })}\n`);
  if (failed.length > 0) io.stderr.write(`${t.error(say(io.lang, 'events.resendNotOk', { names: printable(failed.map(nameOf).join(', ')) }))}\n`);
}

/** A row's texts in `lang`: the scenario, what was expected, and what the receiver answered to each copy. */
function checkTexts(lang: Lang, row: CheckRow): { scenario: string; expected: string; got: string } {
  const got = row.attempts.map((a) => (a.httpStatus === null ? say(lang, 'events.checkNoAnswer', { error: a.error ?? '?' }) : String(a.httpStatus))).join(', ');
  return { scenario: say(lang, `events.scenario_${row.name}` as MessageKey), expected: say(lang, `events.expect_${row.name}` as MessageKey), got };
}

/** One row of a receiver's check as it ends (stdout, the command's data), in the run's language; nothing with --json. */
export function renderCheckRow(io: Io, row: CheckRow): void {
  if (io.json) return;
  const t = createTheme({ color: io.colorStdout });
  const lang = io.lang;
  const mark = row.ok ? t.success('✓') : t.error('✗');
  const { scenario, expected, got } = checkTexts(lang, row);
  io.stdout.write(`${mark} ${scenario}  ${t.muted(`${say(lang, 'events.checkExpected')}:`)} ${expected}  ${t.muted(`${say(lang, 'events.checkGot')}:`)} ${printable(got)}\n`);
}

/** The verdict (stderr); with --json, the whole document (its texts in English, docs/cli-contract.md "Events"). */
export function renderCheck(io: Io, to: string, report: CheckReport): void {
  if (io.json) {
    const rows = report.rows.map((row) => ({ ...checkTexts('en', row), ok: row.ok }));
    io.stdout.write(`${JSON.stringify({ ok: report.ok, rows })}\n`);
    return;
  }
  const t = createTheme(io);
  const failed = report.rows.filter((r) => !r.ok).length;
  const values = { url: printable(to), n: report.rows.length, failed };
  io.stderr.write(`${failed === 0 ? t.success(say(io.lang, 'events.checkPassed', values)) : t.error(say(io.lang, 'events.checkFailed', values))}\n`);
}
