/**
 * `econsig events check --to <url>`: the scenarios a team's result receiver must survive, sent
 * through a sandbox (one started here, or `--sandbox`) with the sandbox's trigger
 * (sandbox/trigger.ts), each copy tried once. Each row: what the receiver should answer, what it
 * did, whether that holds. Bounded: every attempt has the sender's timeout (5 s), so the whole
 * check ends within about a minute whatever the receiver does. Free of terminal I/O.
 */
import { randomBytes } from 'node:crypto';
import { startSandbox } from '../sandbox/server.js';
import type { TriggerAnswer, TriggerRequest } from '../sandbox/trigger.js';
import { sendTrigger, type TriggerTarget } from './sandbox-trigger.js';

/** Each scenario's name: its texts are the catalogue's `events.scenario_<name>` and `events.expect_<name>` (English in --json). */
export type ScenarioName = 'approved' | 'denied' | 'cancelled' | 'signature' | 'stale' | 'duplicate' | 'retry' | 'order';

/** What the receiver answered to one copy: its status, or the error when it did not answer. */
export type Attempt = TriggerAnswer['attempts'][number];

export interface CheckRow {
  name: ScenarioName;
  /** What the receiver answered to each copy sent, in order. */
  attempts: readonly Attempt[];
  ok: boolean;
}

export interface CheckReport {
  ok: boolean;
  rows: CheckRow[];
}

/** The bundled catalogue's proposals each outcome is triggered for (docs/sandbox.md, "Catalogue"). */
const APPROVED = 'PROP-1001';
const DENIED = 'PROP-1002';
/** Standard Webhooks receivers refuse a timestamp more than 5 minutes away. */
const STALE_SECONDS = -600;

const is2xx = (a: Attempt | undefined): boolean => a !== undefined && a.httpStatus !== null && a.httpStatus >= 200 && a.httpStatus < 300;
const is4xx = (a: Attempt | undefined): boolean => a !== undefined && a.httpStatus !== null && a.httpStatus >= 400 && a.httpStatus < 500;

/** Runs every scenario against the receiver at `to`, through the sandbox at `target`; `onRow` hears each as it ends. */
export async function checkReceiver(target: TriggerTarget, to: string, onRow: (row: CheckRow) => void = () => undefined): Promise<CheckReport> {
  const once = async (request: Partial<TriggerRequest>): Promise<TriggerAnswer> => sendTrigger(target, { to, once: true, ...request });
  const rows: CheckRow[] = [];
  const row = (name: ScenarioName, attempts: readonly Attempt[], ok: boolean): void => {
    const done = { name, attempts, ok };
    rows.push(done);
    onRow(done);
  };

  for (const [outcome, idProposta] of [['approved', APPROVED], ['denied', DENIED], ['cancelled', APPROVED]] as const) {
    const sent = await once({ outcome, idProposta });
    row(outcome, sent.attempts, is2xx(sent.attempts[0]));
  }

  const badSignature = await once({ outcome: 'approved', idProposta: APPROVED, badSignature: true });
  row('signature', badSignature.attempts, is4xx(badSignature.attempts[0]));

  const stale = await once({ outcome: 'approved', idProposta: APPROVED, timestampOffsetSeconds: STALE_SECONDS });
  row('stale', stale.attempts, is4xx(stale.attempts[0]));

  // The same webhook-id and body twice: the receiver answers the copy as it answered the first.
  const duplicate = await once({ outcome: 'approved', idProposta: APPROVED, times: 2 });
  const [first, copy] = duplicate.attempts;
  row('duplicate', duplicate.attempts, is2xx(first) && copy?.httpStatus === first?.httpStatus);

  // A first attempt the receiver rightly refused (stale), then its retry with a fresh timestamp and
  // the same webhook-id: a receiver that took the id as seen before verifying would drop the result.
  const refused = await once({ outcome: 'denied', idProposta: DENIED, timestampOffsetSeconds: STALE_SECONDS });
  const retried = await once({ outcome: 'denied', idContrato: refused.idContrato, webhookId: refused.webhookId });
  const retry = [...refused.attempts, ...retried.attempts];
  row('retry', retry, is4xx(retry[0]) && is2xx(retry[1]));

  // No ordering promise: a denial after the approval of the same contract is taken, not a failure.
  const approved = await once({ outcome: 'approved', idProposta: APPROVED });
  const denied = await once({ outcome: 'denied', idContrato: approved.idContrato });
  const order = [...approved.attempts, ...denied.attempts];
  row('order', order, is2xx(order[0]) && is2xx(order[1]));

  return { ok: rows.every((r) => r.ok), rows };
}

/** A sandbox of its own for the check, on a free port of this machine, signing with the receiver's secret; closed after `use`. */
export async function withCheckSandbox<T>(secret: string, use: (target: TriggerTarget) => Promise<T>): Promise<T> {
  const token = `sbx_${randomBytes(16).toString('hex')}`;
  // Its own results never come due: only the check's triggers are sent.
  const sandbox = await startSandbox({ port: 0, token, secret, delayMs: 24 * 3_600_000 });
  try {
    return await use({ url: sandbox.url, token });
  } finally {
    await sandbox.close();
  }
}
