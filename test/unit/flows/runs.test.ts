/**
 * Runs (flows/runs.ts, issue 26): the id, who runs it, the ledger and its identities, the run
 * recorded as it goes (RunLog), and waitForRun on a real SQLite store fed by another
 * connection; and the batch's part: a proposal in flight in another live run is reported with
 * that run's answer, one whose run is dead stays held (unknown).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerBalances, ledgerOf, ledgerPart } from '../../../src/domain/report.js';
import { isLive, newRunId, readRun, resultsExitCode, RunLog, waitForRun, whoRuns } from '../../../src/flows/runs.js';
import { bodyHash, submitBatch, type SubmitItem } from '../../../src/flows/submit-batch.js';
import { redactCommandLine } from '../../../src/redact.js';
import { SqliteStore } from '../../../src/record/sqlite.js';
import { acceptAll, FakeStore, fakeClient } from './fakes.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('the run id and who runs it', () => {
  it('r-YYYYMMDD-HHMM-xxx, at most 32 characters of [A-Za-z0-9._:-]', () => {
    const id = newRunId(new Date('2026-11-27T17:00:59Z'), () => 'a3f');
    expect(id).toBe('r-20261127-1700-a3f');
    const made = newRunId(new Date());
    expect(made).toMatch(/^r-\d{8}-\d{4}-[0-9a-f]{3}$/);
    expect(made.length).toBeLessThanOrEqual(32);
  });

  it('the CI job from GITHUB_RUN_ID, CI_JOB_ID or CI', () => {
    expect(whoRuns({ GITHUB_RUN_ID: '77', GITHUB_REPOSITORY: 'acme/loans', GITHUB_JOB: 'smoke' }).ci).toBe('github:acme/loans/77/smoke');
    expect(whoRuns({ CI_JOB_ID: '9', CI_PROJECT_PATH: 'acme/loans' }).ci).toBe('gitlab:acme/loans/9');
    expect(whoRuns({ CI: 'true' }).ci).toBe('ci');
    expect(whoRuns({ CI: 'false' }).ci).toBeNull();
    expect(whoRuns({}).host).toBe(hostname());
  });

  it('the recorded command line has no secret: a secret-named flag, a bearer, a URL password', () => {
    const line = redactCommandLine(['submit', 'lote dir/', '--token', 'tok_live_9f8e7d6c5b4a', '--secret=shh-123456', '--with-token', 'a.json', '--base-url', 'https://u:pw123@h.example/api', 'Bearer abcdefghij']);
    expect(line).toBe("econsig submit 'lote dir/' --token [redacted] --secret=[redacted] --with-token a.json --base-url https://u@h.example/api 'Bearer [redacted]'");
  });
});

describe('the ledger', () => {
  it('places every outcome the store records; accepted splits by result; an unknown outcome leaves it unbalanced', () => {
    expect(['invalid', 'not_sent', 'unauthorized', 'unavailable', 'rate_limited', 'skipped', 'rejected', 'not_found', 'unknown'].map((o) => ledgerPart(o, null))).toEqual([
      'invalid',
      'notSent',
      'notSent',
      'notSent',
      'notSent',
      'skipped',
      'rejected',
      'notFound',
      'unknown',
    ]);
    expect([null, 'approved', 'denied', 'cancelled'].map((r) => ledgerPart('accepted', r))).toEqual(['waiting', 'approved', 'denied', 'cancelled']);
    const counts = [
      { effective: 'accepted', result: 'approved', n: 3 },
      { effective: 'accepted', result: null, n: 2 },
      { effective: 'invalid', result: null, n: 1 },
    ];
    const ledger = ledgerOf(6, counts);
    expect(ledger).toMatchObject({ inputs: 6, accepted: 5, approved: 3, waiting: 2, invalid: 1 });
    expect(ledgerBalances(ledger)).toBe(true);
    expect(resultsExitCode(ledger)).toBe(9);
    expect(ledgerBalances(ledgerOf(7, [...counts, { effective: 'approved', result: null, n: 1 }]))).toBe(false);
    expect(resultsExitCode(ledgerOf(1, [{ effective: 'accepted', result: 'cancelled', n: 1 }]))).toBe(8);
  });
});

describe('a run as it goes', () => {
  it('claims name the run; every input is recorded (claimed, a copy); finish ends it', async () => {
    const store = new FakeStore();
    const log = await RunLog.start(store, { command: 'econsig submit', profile: 'default', baseUrl: 'https://h.invalid', service: 'https://h.invalid', lang: 'en', env: {} });
    const item = (id: string): SubmitItem => ({ file: `${id}.json`, body: { idProposta: id }, warnings: [] });
    await submitBatch([item('P1'), item('P2'), item('P1')], {
      client: fakeClient(acceptAll),
      store,
      profile: 'default',
      baseUrl: 'https://h.invalid',
      service: 'https://h.invalid',
      concurrency: 2,
      force: false,
      signal: new AbortController().signal,
      now: () => new Date(),
      run: log,
    });
    expect(await log.finish()).toBeUndefined();
    const recorded = store.runRecords.get(log.id)!;
    expect(recorded.endedAt).not.toBeNull();
    expect(recorded.inputs.map((i) => [i.idProposta, i.outcome, i.ref !== null])).toEqual(
      expect.arrayContaining([
        ['P1', 'sent', true],
        ['P2', 'sent', true],
        ['P1', 'skipped', false],
      ]),
    );
    expect(recorded.inputs).toHaveLength(3);
    expect(store.submissions().every((s) => s.run === log.id)).toBe(true);
  });

  it('a proposal in flight in another live run: its answer is awaited and reported (not skipped, not sent twice); a dead run leaves it held', async () => {
    const store = new FakeStore();
    const now = new Date();
    const other = { command: 'x', profile: 'default', baseUrl: 'https://h.invalid', service: 'https://h.invalid', lang: 'en', by: { user: null, host: hostname(), ci: null }, startedAt: now.toISOString() };
    await store.startRun({ ...other, id: 'r-live', pid: process.pid, leaseUntil: new Date(now.getTime() + 60_000).toISOString() });
    await store.startRun({ ...other, id: 'r-dead', pid: process.pid, leaseUntil: new Date(now.getTime() - 1_000).toISOString() });
    expect(isLive((await store.run('r-live'))!)).toBe(true);
    expect(isLive((await store.run('r-dead'))!)).toBe(false);
    const claim = async (id: string, run: string) => {
      // The same body the other run sends.
      const c = await store.claim({ idProposta: id, service: 'https://h.invalid', baseUrl: 'https://h.invalid', bodyHash: bodyHash({ idProposta: id }), file: null, profile: 'default', at: now.toISOString(), force: false, run });
      if (c.kind !== 'claimed') throw new Error('held');
      return c.ref;
    };
    const live = await claim('P-live', 'r-live');
    await claim('P-dead', 'r-dead');
    const client = fakeClient(acceptAll);
    const items: SubmitItem[] = ['P-live', 'P-dead'].map((id) => ({ file: `${id}.json`, body: { idProposta: id }, warnings: [] }));
    const sent = submitBatch(items, { client, store, profile: 'default', baseUrl: 'https://h.invalid', service: 'https://h.invalid', concurrency: 2, force: false, signal: new AbortController().signal, now: () => new Date() });
    // The other run answers a moment later.
    setTimeout(() => void store.recordAnswer(live, { at: new Date().toISOString(), outcome: 'accepted', httpStatus: 202, idContrato: 'C-live', erros: [], message: null }), 150);
    const results = await sent;
    expect(client.requests).toHaveLength(0);
    expect(results.map((r) => [r.outcome, r.idContrato])).toEqual([
      ['accepted', 'C-live'],
      ['skipped', null],
    ]);
  });
});

describe('waitForRun (SQLite, another connection records the results)', () => {
  it('returns once the last result due lands (8: one denied); at the timeout with some waiting (9)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'econsig-runs-'));
    homes.push(home);
    const [submitter, receiver, waiter] = [await SqliteStore.open(home), await SqliteStore.open(home), await SqliteStore.open(home)];
    try {
      const log = await RunLog.start(submitter, { command: 'econsig submit', profile: 'default', baseUrl: 'https://h.invalid', service: 'https://h.invalid', lang: 'en', env: {} });
      for (const [i, id] of ['P1', 'P2'].entries()) {
        const c = await submitter.claim({ idProposta: id, service: 'https://h.invalid', baseUrl: 'https://h.invalid', bodyHash: 'x', file: null, profile: 'default', at: new Date().toISOString(), force: false, run: log.id });
        if (c.kind !== 'claimed') throw new Error('held');
        await submitter.recordAnswer(c.ref, { at: new Date().toISOString(), outcome: 'accepted', httpStatus: 202, idContrato: `C-${i}`, erros: [], message: null });
        log.add({ file: `${id}.json`, row: null, idProposta: id, outcome: 'sent', ref: c.ref, reason: null });
      }
      await log.finish();
      expect(await waitForRun(waiter, log.id, { timeoutMs: 300, signal: new AbortController().signal })).toBe(true);
      expect(resultsExitCode((await readRun(waiter, log.id))!.ledger)).toBe(9);
      const waited = waitForRun(waiter, log.id, { timeoutMs: 20_000, signal: new AbortController().signal });
      await receiver.recordResult({ idContrato: 'C-0', at: new Date().toISOString(), outcome: 'approved', status: null, reason: null });
      await receiver.recordResult({ idContrato: 'C-1', at: new Date().toISOString(), outcome: 'denied', status: null, reason: 'Margem' });
      expect(await waited).toBe(true);
      // Read whole, and as people read it (the store's counts, the rows that need a person): the same ledger.
      const view = (await readRun(waiter, log.id))!;
      const brief = (await readRun(waiter, log.id, { usualMs: 60_000 }))!;
      expect(view.ledger).toMatchObject({ inputs: 2, accepted: 2, approved: 1, denied: 1, waiting: 0 });
      expect(brief.ledger).toEqual(view.ledger);
      expect(brief.inputs.map((i) => i.idProposta)).toEqual(['P2']);
      expect(resultsExitCode(view.ledger)).toBe(8);
      expect(await waitForRun(waiter, 'r-none', { timeoutMs: 300, signal: new AbortController().signal })).toBe(false);
      expect((await readRun(waiter, 'last'))!.run.id).toBe(log.id);
    } finally {
      for (const store of [submitter, receiver, waiter]) await store.close();
    }
  });
});
