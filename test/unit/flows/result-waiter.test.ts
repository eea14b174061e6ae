/**
 * The result waiter (flows/result-waiter.ts) against a fake record: results known by
 * contract (published live, followed in the store, or recorded before the wait), the wait's
 * end (result, timeout, Ctrl-C), and how `submit --wait` learns them: its own listener, a
 * running `econsig watch` on the same record, or the record alone.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { EconsigError, ExitCode } from '../../../src/errors.js';
import { ContractResults, type ContractResult, type ResultWaiter, startResultWaiter } from '../../../src/flows/result-waiter.js';
import { FakeStore, type Stub, closedPort, startStub } from './fakes.js';

const live = (idContrato: string, outcome: ContractResult['outcome'] = 'approved'): ContractResult => ({ idContrato, outcome, status: null, reason: null, source: 'live' });
const record = (idContrato: string, outcome: ContractResult['outcome'] = 'denied') => ({ idContrato, at: '2026-03-02T12:00:00Z', outcome, status: 'REPROVADO', reason: 'margem' });
const never = new AbortController().signal;
/** The store's id as settings/home.ts storeId gives it (an HMAC of its location). */
const STORE_ID = '0f3c9a7e51d2b8a4c6e0f1a2b3c4d5e6';

describe('ContractResults', () => {
  it('a result recorded before the wait began: answered from the record at once (source store)', async () => {
    const store = new FakeStore();
    await store.recordResult(record('C-1'));
    const results = new ContractResults(store);
    expect(await results.waitFor('C-1', 60_000, never)).toMatchObject({ idContrato: 'C-1', outcome: 'denied', reason: 'margem', source: 'store' });
    expect(store.calls.resultOf).toBe(1);
  });

  it('a result published while waiting ends the wait (source live); another contract does not', async () => {
    const results = new ContractResults(new FakeStore());
    const waiting = results.waitFor('C-1', 60_000, never);
    results.publish(live('C-2'));
    results.publish(undefined);
    results.publish(live('C-1', 'denied'));
    expect(await waiting).toEqual(live('C-1', 'denied'));
  });

  it('a result recorded in the followed store ends the wait (source store); the first result of a contract wins', async () => {
    const store = new FakeStore();
    const results = new ContractResults(store);
    const stop = new AbortController();
    await results.follow(stop.signal);
    const waiting = results.waitFor('C-1', 60_000, never);
    await store.recordResult(record('C-1', 'approved'));
    results.publish(live('C-1', 'denied'));
    expect(await waiting).toMatchObject({ outcome: 'approved', source: 'store' });
    expect(await results.waitFor('C-1', 60_000, never)).toMatchObject({ outcome: 'approved', source: 'store' });
    stop.abort();
    expect(store.following()).toBe(0);
  });

  it('no result within the time: null', async () => {
    const results = new ContractResults(new FakeStore());
    expect(await results.waitFor('C-1', 1, never)).toBeNull();
  });

  it('Ctrl-C ends the wait with null, whether it comes before or during the wait', async () => {
    const results = new ContractResults(new FakeStore());
    expect(await results.waitFor('C-1', 60_000, AbortSignal.abort())).toBeNull();
    const stop = new AbortController();
    const waiting = results.waitFor('C-1', 60_000, stop.signal);
    stop.abort();
    expect(await waiting).toBeNull();
    // A result after the abort is still known to later waits.
    results.publish(live('C-1'));
    expect(await results.waitFor('C-1', 60_000, never)).toEqual(live('C-1'));
  });

  it('a record that cannot answer the earlier result does not end the wait: the follower may still bring it', async () => {
    const store = new FakeStore();
    store.failFrom.resultOf = 1;
    const results = new ContractResults(store);
    await results.follow(never);
    const waiting = results.waitFor('C-1', 60_000, never);
    await store.recordResult(record('C-1'));
    expect(await waiting).toMatchObject({ idContrato: 'C-1', source: 'store' });
  });
});

const resultBody = (idContrato: string, status = 'APROVADO') =>
  JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato, idProposta: 'PROP-1001', status, motivo: null, dataHora: new Date().toISOString() });

async function post(url: string, body: string): Promise<number> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, headersTimeout: 5000, bodyTimeout: 5000 });
  await res.body.dump();
  return res.statusCode;
}

describe('startResultWaiter', () => {
  const opened: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const resource of opened.splice(0).reverse()) await resource.close();
  });
  const start = async (store: FakeStore, options: { port?: number; listen?: boolean } = {}): Promise<ResultWaiter> => {
    const waiter = await startResultWaiter({ store, storeId: STORE_ID, listen: options.listen, listener: { host: '127.0.0.1', port: options.port ?? 0, path: '/webhook' } });
    opened.push(waiter);
    return waiter;
  };
  const stub = async (handler: Parameters<typeof startStub>[0]): Promise<Stub> => {
    const s = await startStub(handler);
    opened.push(s);
    return s;
  };

  it('listens before anything is sent: a delivery to its URL is recorded and ends the wait for that contract', async () => {
    const store = new FakeStore();
    const waiter = await start(store);
    expect(waiter.mode.kind).toBe('listening');
    expect(store.following()).toBe(1);
    const id = randomUUID();
    const waiting = waiter.waitFor(id, 60_000, never);
    expect(await post(waiter.mode.url, resultBody(id, 'REPROVADO'))).toBe(200);
    expect(await waiting).toMatchObject({ idContrato: id, outcome: 'denied' });
    expect(store.calls.recordDelivery).toBe(1);
    expect(store.deliveries).toHaveLength(1);
  });

  it('listen false: binds no port and learns results from the record alone', async () => {
    const store = new FakeStore();
    const waiter = await start(store, { listen: false });
    expect(waiter.mode).toEqual({ kind: 'store', url: store.location });
    const waiting = waiter.waitFor('C-1', 60_000, never);
    await store.recordResult(record('C-1', 'cancelled'));
    expect(await waiting).toMatchObject({ outcome: 'cancelled', source: 'store' });
  });

  it('close stops following the record and closes the listener', async () => {
    const store = new FakeStore();
    const waiter = await startResultWaiter({ store, storeId: STORE_ID, listener: { host: '127.0.0.1', port: 0, path: '/webhook' } });
    await waiter.close();
    expect(store.following()).toBe(0);
    await expect(post(waiter.mode.url, resultBody(randomUUID()))).rejects.toThrow();
  });

  it('the port held by a running `econsig watch` on the same record: follows it instead (asked once at /healthz)', async () => {
    const store = new FakeStore();
    const watch = await stub((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, service: 'econsig-watch', storeId: STORE_ID })));
    const waiter = await start(store, { port: watch.port });
    expect(waiter.mode).toEqual({ kind: 'following', url: `http://127.0.0.1:${watch.port}/webhook` });
    expect(watch.requests).toEqual(['GET /healthz']);
    expect(store.following()).toBe(1);
  });

  it('the port held by another waiter of this store: followed, found by the store id its /healthz gives (which names no location)', async () => {
    const store = new FakeStore();
    const first = await start(store);
    const health = await request(first.mode.url.replace('/webhook', '/healthz'));
    expect(await health.body.json()).toEqual({ ok: true, service: 'econsig-watch', storeId: STORE_ID });
    expect((await start(store, { port: Number(new URL(first.mode.url).port) })).mode.kind).toBe('following');
    const other = await startResultWaiter({ store, storeId: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5', listener: { host: '127.0.0.1', port: Number(new URL(first.mode.url).port), path: '/webhook' } }).catch((e: unknown) => e);
    expect((other as EconsigError).exitCode).toBe(ExitCode.usage);
  });

  it.each([
    ['a watch writing to another record', { ok: true, service: 'econsig-watch', storeId: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5' }, ExitCode.usage],
    ['a watch of an earlier version (it named its store, not its id)', { ok: true, service: 'econsig-watch', store: '/elsewhere/econsig.db' }, ExitCode.usage],
    ['something else on the port', { hello: 'world' }, ExitCode.usage],
  ])('the port held by %s: the operator\'s error (exit %s), nothing followed', async (_name, healthz, exitCode) => {
    const store = new FakeStore();
    const other = await stub((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(healthz)));
    const error = await start(store, { port: other.port }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EconsigError);
    expect((error as EconsigError).exitCode).toBe(exitCode);
    expect(store.calls.followResults).toBe(0);
  });

  it('a record that cannot be followed: the failure is thrown and the listener closed again (its port is free)', async () => {
    const port = await closedPort();
    const broken = new FakeStore();
    broken.failFrom.followResults = 1;
    const error = await startResultWaiter({ store: broken, storeId: STORE_ID, listener: { host: '127.0.0.1', port, path: '/webhook' } }).catch((e: unknown) => e);
    expect((error as EconsigError).exitCode).toBe(ExitCode.storage);
    expect((await start(new FakeStore(), { port })).mode.kind).toBe('listening');
  });
});
