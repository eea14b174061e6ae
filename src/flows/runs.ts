/**
 * Runs (docs/cli-contract.md, "Runs"): every `submit` as a whole, recorded in the store as it
 * goes (RunLog), read back as a ledger (readRun), and waited for later, from any home that
 * shares the store (waitForRun). Free of terminal I/O.
 */
import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { type Ledger, ledgerOf } from '../domain/report.js';
import type { ResultRecord, RunBy, RunInput, RunInputRecord, RunRecord, RunStart, RunSummary, Store } from '../record/record.js';
import { StorageError } from '../settings/home.js';

/** How long a run's lease holds unless renewed; it is renewed three times in that span while the run lives. */
export const LEASE_MS = 30_000;
/** Inputs are written in groups of this many, or after FLUSH_MS, whichever comes first: memory stays bounded at any size. */
const FLUSH_AT = 500;
const FLUSH_MS = 200;

/** `r-20261127-1700-a3f`: the start (UTC, to the minute) and three hex digits; at most 32 characters of [A-Za-z0-9._:-]. */
export function newRunId(now: Date, random: () => string = () => randomBytes(2).toString('hex').slice(0, 3)): string {
  const iso = now.toISOString();
  return `r-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 13)}${iso.slice(14, 16)}-${random()}`;
}

/** Who runs it: the system user and host; the CI job when CI, GITHUB_RUN_ID or CI_JOB_ID say so. */
export function whoRuns(env: Record<string, string | undefined>): RunBy {
  const user = systemUser() ?? env.USER ?? env.USERNAME ?? null;
  const ci = env.GITHUB_RUN_ID
    ? `github:${env.GITHUB_REPOSITORY ? `${env.GITHUB_REPOSITORY}/` : ''}${env.GITHUB_RUN_ID}${env.GITHUB_JOB ? `/${env.GITHUB_JOB}` : ''}`
    : env.CI_JOB_ID
      ? `gitlab:${env.CI_PROJECT_PATH ? `${env.CI_PROJECT_PATH}/` : ''}${env.CI_JOB_ID}`
      : env.CI && env.CI !== 'false'
        ? 'ci'
        : null;
  return { user, host: hostname(), ci };
}

/** The system user (a run's, a deletion record's); null where the system cannot say (a container's uid without a passwd entry). */
export function systemUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

/** A run that may still send: not ended, and its lease not lapsed (its process renews it while it lives). */
export function isLive(run: Pick<RunRecord, 'endedAt' | 'leaseUntil' | 'readAt' | 'pid' | 'by'>): boolean {
  if (run.endedAt !== null || Date.parse(run.leaseUntil) <= Date.parse(run.readAt)) return false;
  // On this host its process is asked directly: a run killed a moment ago is dead now, not when its lease lapses.
  return run.by.host !== hostname() || processLives(run.pid);
}

/** Whether a process of this host lives (signal 0 checks without sending; EPERM: it lives, another user's). */
function processLives(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type RunDetails = Omit<RunStart, 'id' | 'startedAt' | 'pid' | 'leaseUntil' | 'by'> & { env: Record<string, string | undefined> };

/**
 * A run as it is recorded: started (its id made, its lease taken and renewed while it lives),
 * its inputs written in groups as their fate becomes known, ended. A failure to write is kept
 * and said once at the end (`finish`): the submissions themselves are guarded either way.
 */
export class RunLog {
  private pending: RunInput[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly lease: NodeJS.Timeout;
  private readonly writes = new Set<Promise<void>>();
  private failure: StorageError | undefined;

  private constructor(
    private readonly store: Store,
    readonly id: string,
    private readonly now: () => Date,
  ) {
    this.lease = setInterval(() => this.keep(this.store.renewRun(this.id, this.leaseUntil())), LEASE_MS / 3);
    this.lease.unref();
  }

  static async start(store: Store, details: RunDetails, now: () => Date = () => new Date()): Promise<RunLog> {
    const { env, ...rest } = details;
    for (;;) {
      const started = now();
      const id = newRunId(started);
      const run: RunStart = { ...rest, id, startedAt: started.toISOString(), by: whoRuns(env), pid: process.pid, leaseUntil: new Date(started.getTime() + LEASE_MS).toISOString() };
      // Three hex digits a minute: a taken id is made again.
      if (await store.startRun(run)) return new RunLog(store, id, now);
    }
  }

  private leaseUntil(): string {
    return new Date(this.now().getTime() + LEASE_MS).toISOString();
  }

  private keep(write: Promise<void>): void {
    const kept = write.catch((error: unknown) => {
      if (!(error instanceof StorageError)) throw error;
      this.failure ??= error;
    });
    this.writes.add(kept);
    void kept.finally(() => this.writes.delete(kept));
  }

  /** An input whose fate in the run is known. */
  add(input: RunInput): void {
    this.pending.push(input);
    if (this.pending.length >= FLUSH_AT) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const inputs = this.pending;
    this.pending = [];
    this.keep(this.store.recordRunInputs(this.id, inputs));
  }

  /** Writes what is left and ends the run; the first write that failed, if any. */
  async finish(): Promise<StorageError | undefined> {
    clearInterval(this.lease);
    this.flush();
    this.keep(this.store.endRun(this.id, this.now().toISOString()));
    while (this.writes.size > 0) await Promise.all([...this.writes]);
    return this.failure;
  }
}

/** A run read back: its record, its ledger, its inputs (all, or only those that need a person). */
export interface RunView {
  run: RunRecord;
  ledger: Ledger;
  inputs: RunInputRecord[];
  /** Whether `inputs` holds every input, or only those that need a person. */
  complete: boolean;
}

/**
 * The run `id` (or `last`), with its ledger; null when the store has no such run. `inputs`:
 * every input (--json, the xlsx report), or only those that need a person, waiting counted
 * as needing one past `usualMs` (what people read): the ledger then comes from the store's
 * counts, and a run of 100,000 inputs is read in one GROUP BY and the few rows that matter.
 */
export async function readRun(store: Store, id: string, inputs: 'all' | { usualMs: number } = 'all'): Promise<RunView | null> {
  const run = await store.run(id);
  if (!run) return null;
  if (inputs !== 'all') {
    const { counts, needing } = await store.runNeeds(run.id, new Date(Date.parse(run.readAt) - inputs.usualMs).toISOString());
    return { run, ledger: ledgerOf(total(counts), counts), inputs: needing, complete: false };
  }
  const all = await store.runInputs(run.id);
  const counts = new Map<string, { effective: string; result: string | null; n: number }>();
  for (const input of all) {
    const result = input.result?.outcome ?? null;
    const key = `${input.effective}\u0000${result}`;
    const count = counts.get(key) ?? counts.set(key, { effective: input.effective, result, n: 0 }).get(key)!;
    count.n += 1;
  }
  return { run, ledger: ledgerOf(all.length, counts.values()), inputs: all, complete: true };
}

const total = (counts: RunSummary['counts']): number => counts.reduce((sum, c) => sum + c.n, 0);

/** A listed run's ledger, from its counts. */
export function summaryLedger(summary: RunSummary): Ledger {
  return ledgerOf(total(summary.counts), summary.counts);
}

/** How a run ended for its results, as `submit --wait` exits: 8 when any was denied (or cancelled), 9 when some are still waiting, else 0. */
export function resultsExitCode(ledger: Ledger): 0 | 8 | 9 {
  if (ledger.denied + ledger.cancelled > 0) return 8;
  if (ledger.waiting > 0) return 9;
  return 0;
}

/**
 * Waits until every accepted input of the run has its result, or `timeoutMs` passes, or the
 * signal aborts; learns results from the store alone (what a `watch` or the team's receiver
 * records): it binds no port. While the run itself still lives, its inputs are read again
 * as they come. False when the store has no such run; the caller reads the run as it stands.
 */
export async function waitForRun(store: Store, id: string, options: { timeoutMs: number; signal: AbortSignal; onResult?: (result: ResultRecord) => void }): Promise<boolean> {
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  let wake: (() => void) | undefined;
  const pending = new Set<string>();
  // Following first, then reading: a result recorded in between is in the read or followed.
  await store.followResults(
    (result) => {
      if (!pending.delete(result.idContrato)) return;
      options.onResult?.(result);
      if (pending.size === 0) wake?.();
    },
    { signal },
  );
  const deadline = Date.now() + options.timeoutMs;
  try {
    for (;;) {
      const run = await store.run(id);
      if (!run) return false;
      pending.clear();
      for (const input of await store.runInputs(run.id, { kind: 'pending' })) pending.add(input.idContrato as string);
      const live = isLive(run);
      if ((pending.size === 0 && !live) || signal.aborted || Date.now() >= deadline) return true;
      // Woken by the last result due, or every second while the run lives (its inputs still come), or at the deadline.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(deadline - Date.now(), live ? 1_000 : 60_000));
        const done = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
      wake = undefined;
    }
  } finally {
    stop.abort();
  }
}
