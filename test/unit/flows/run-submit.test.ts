/**
 * The submit use-case (flows/run-submit.ts): who opens what. `withRecord` opens the record and
 * the result waiter and closes both however the run ends; `runSubmit` sends with the record it
 * is given (a fake here) through a client of its own, to a local service stub.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import type { ResultWaiter } from '../../../src/flows/result-waiter.js';
import { runSubmit, withRecord } from '../../../src/flows/run-submit.js';
import type { Store } from '../../../src/record/record.js';
import type { FileReport } from '../../../src/domain/report.js';
import { FakeStore, type Stub, closedPort, startStub } from './fakes.js';

let home: string;
const opened: Stub[] = [];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'econsig-run-submit-'));
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  rmSync(home, { recursive: true, force: true });
});

const valid = (file: string, idProposta: string): FileReport => ({ file, ok: true, errors: [], warnings: [], exitCode: ExitCode.ok, value: { idProposta } as unknown as FileReport['value'] });
const invalid = (file: string): FileReport => ({ file, ok: false, errors: [], warnings: [], exitCode: ExitCode.invalid });

describe('withRecord', () => {
  it('hands over the record and, with wait, a listening waiter; closes both however the run ends', async () => {
    const port = await closedPort();
    let store: Store | undefined;
    let waiter: ResultWaiter | undefined;
    const failure = new Error('the run failed');
    await expect(
      withRecord({ home, wait: { listener: { host: '127.0.0.1', port, path: '/webhook' } } }, async (s, w) => {
        store = s;
        waiter = w;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(waiter?.mode).toEqual({ kind: 'listening', url: `http://127.0.0.1:${port}/webhook` });
    // Closed: the record refuses work, and the port is free for the next run.
    await expect(store?.history({ limit: 1 })).rejects.toThrow();
    const again = await withRecord({ home, wait: { listener: { host: '127.0.0.1', port, path: '/webhook' } } }, async (_s, w) => w?.mode.kind);
    expect(again).toBe('listening');
  });

  it('without wait: no waiter, no port', async () => {
    expect(await withRecord({ home }, async (s, w) => [s.location.startsWith(home), w])).toEqual([true, undefined]);
  });
});

describe('runSubmit', () => {
  it('sends the valid files with the record it is given; every file comes back in input order, the invalid ones not sent', async () => {
    const service = await startStub((_req, res) => res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ idContrato: randomUUID(), erros: [] })));
    opened.push(service);
    const store = new FakeStore();
    const results = await runSubmit([invalid('a.json'), valid('b.json', 'P-1'), invalid('c.json'), valid('d.json', 'P-2')], {
      store,
      profile: 'default',
      baseUrl: service.url,
      service: service.url,
      token: 'tok-abc',
      requestTimeoutMs: 5_000,
      concurrency: 2,
      force: false,
      signal: new AbortController().signal,
    });
    expect(results.map((r) => [r.file, r.outcome, r.exitCode])).toEqual([
      ['a.json', 'invalid', ExitCode.invalid],
      ['b.json', 'accepted', ExitCode.ok],
      ['c.json', 'invalid', ExitCode.invalid],
      ['d.json', 'accepted', ExitCode.ok],
    ]);
    expect(service.requests).toEqual(['POST /api/v1/e-consignado/contratos', 'POST /api/v1/e-consignado/contratos']);
    expect(store.calls.claim).toBe(2);
    // The record is the caller's: runSubmit does not close it.
    expect(store.calls.close).toBe(0);
  });

  it('nothing valid: nothing claimed, nothing sent', async () => {
    const store = new FakeStore();
    const results = await runSubmit([invalid('a.json')], {
      store,
      profile: 'default',
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      service: 'unused',
      token: 'tok-abc',
      requestTimeoutMs: 5_000,
      concurrency: 1,
      force: false,
      signal: new AbortController().signal,
    });
    expect(results.map((r) => r.outcome)).toEqual(['invalid']);
    expect(store.calls.claim).toBe(0);
  });
});
