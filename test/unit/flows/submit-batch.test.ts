/**
 * The batch (flows/submit-batch.ts) against a fake record and a fake service, through their
 * interfaces: what is claimed, what is sent, what is recorded, when it stops, and the outcome
 * and exit code of every file. Message texts are not asserted (the catalogue's business).
 */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import { type BatchOptions, StoreIncompleteError, type SubmitItem, sendItems, submitBatch } from '../../../src/flows/submit-batch.js';
import type { ContractResult, ResultWaiter } from '../../../src/flows/result-waiter.js';
import {
  AbortedError,
  ConnectionError,
  ProposalNotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UndocumentedAnswerError,
  ValidationRejectedError,
} from '../../../src/service/errors.js';
import type { SubmitResult } from '../../../src/domain/report.js';
import { type Answer, FakeStore, accepted, acceptAll, fakeClient } from './fakes.js';

const BASE_URL = 'https://homolog.invalid';

const item = (idProposta: string, extra: Record<string, unknown> = {}): SubmitItem => ({
  file: `${idProposta}.json`,
  body: { idProposta, valor: 1000, ...extra },
  warnings: [],
});
const items = (n: number): SubmitItem[] => Array.from({ length: n }, (_, i) => item(`P-${i + 1}`));

function batch(list: readonly SubmitItem[], options: Partial<Omit<BatchOptions, 'service'>> & { answer?: Answer } = {}) {
  const store = (options.store as FakeStore | undefined) ?? new FakeStore();
  const client = fakeClient(options.answer ?? acceptAll);
  const run = submitBatch(list, {
    client,
    store,
    profile: 'default',
    baseUrl: BASE_URL,
    service: BASE_URL,
    concurrency: 1,
    force: false,
    signal: new AbortController().signal,
    now: () => new Date('2026-03-02T12:00:00Z'),
    ...options,
  });
  return { store, client, run };
}

const outcomes = (results: readonly SubmitResult[]) => results.map((r) => [r.outcome, r.exitCode]);
const answered = (store: FakeStore) => store.submissions().map((s) => s.answer?.outcome ?? null);
const failWith = (error: Error): Answer => () => Promise.reject(error);

describe('submitBatch: claim, then send', () => {
  it('claims each proposal, sends it once, records its answer: every file accepted, exit 0', async () => {
    const { store, client, run } = batch(items(3));
    const results = await run;
    expect(outcomes(results)).toEqual(Array(3).fill(['accepted', ExitCode.ok]));
    expect(results.map((r) => r.idContrato)).toEqual(['C-P-1', 'C-P-2', 'C-P-3']);
    expect(client.requests.map((b) => b.idProposta)).toEqual(['P-1', 'P-2', 'P-3']);
    expect(store.calls.claim).toBe(3);
    expect(answered(store)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(store.submissions().map((s) => s.answer?.idContrato)).toEqual(['C-P-1', 'C-P-2', 'C-P-3']);
  });

  it.each([1, 4])('claims at the send, none ahead (--concurrency %i): at each POST, at most concurrency - 1 other claims are unsent', async (concurrency) => {
    const store = new FakeStore();
    const unsentAtSend: number[] = [];
    const answer: Answer = (body) => {
      // The claim of this POST is recorded; the others not yet sent are the workers' own, at most one each.
      unsentAtSend.push(store.calls.claim - client.requests.length);
      return accepted(`C-${String(body.idProposta)}`);
    };
    const { client, run } = batch(items(12), { store, concurrency, answer });
    await run;
    expect(client.requests).toHaveLength(12);
    expect(store.calls.claim).toBe(12);
    expect(Math.max(...unsentAtSend)).toBeLessThanOrEqual(concurrency - 1);
  });

  it('the JSON sent is the body claimed: the record keeps its hash, the service gets the same proposal', async () => {
    const { store, client, run } = batch([item('P-9', { nested: { a: 1 } })]);
    await run;
    expect(client.requests).toEqual([{ idProposta: 'P-9', valor: 1000, nested: { a: 1 } }]);
    expect(store.submissions()).toMatchObject([{ idProposta: 'P-9', baseUrl: BASE_URL, file: 'P-9.json', profile: 'default', bodyHash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });
});

describe('submitBatch: the outcome of each answer', () => {
  it.each([
    ['401', new UnauthorizedError('401', { status: 401 }), 'unauthorized', ExitCode.auth],
    ['404 SVC_P00003', new ProposalNotFoundError('404', { status: 404, erros: [{ codigo: 'SVC_P00003', msg: 'x' }] }), 'not_found', ExitCode.notFound],
    ['422', new ValidationRejectedError('422', { status: 422, erros: [{ codigo: 'SVC_V00001', msg: 'x' }] }), 'rejected', ExitCode.rejected],
    ['429 spent', new RateLimitedError('429', { status: 429, retryAfterMs: undefined }), 'rate_limited', ExitCode.rateLimited],
    ['refused (not sent)', new ConnectionError('refused', { code: 'ECONNREFUSED', sent: false }), 'unavailable', ExitCode.unavailable],
    ['404 of another shape', new UndocumentedAnswerError('html', { status: 404 }), 'unavailable', ExitCode.unavailable],
    ['retries stopped by Ctrl-C (not sent)', new AbortedError('stopped', { sent: false }), 'skipped', ExitCode.rejected],
  ] as const)('%s: %s, exit %s, recorded as such', async (_name, error, outcome, exitCode) => {
    const { store, client, run } = batch([item('P-1')], { answer: failWith(error) });
    expect(outcomes(await run)).toEqual([[outcome, exitCode]]);
    expect(client.requests).toHaveLength(1);
    expect(answered(store)).toEqual([outcome]);
  });

  it.each([
    ['a 500', new ServerError('500', { status: 500 })],
    ['a 502 of another shape', new UndocumentedAnswerError('html', { status: 502 })],
    ['a 2xx of another shape', new UndocumentedAnswerError('no id', { status: 202 })],
    ['a timeout after sending', new TimeoutError('headers', { phase: 'headers', timeoutMs: 1000 })],
    ['a reset after sending', new ConnectionError('reset', { code: 'ECONNRESET', sent: true })],
    ['Ctrl-C while the request was in flight', new AbortedError('aborted', { sent: true })],
  ])('the answer is lost (%s): unknown, exit 7, recorded unknown; the same proposal again is held, not sent', async (_name, error) => {
    const store = new FakeStore();
    const first = batch([item('P-1')], { store, answer: failWith(error) });
    expect(outcomes(await first.run)).toEqual([['unknown', ExitCode.unavailable]]);
    expect(answered(store)).toEqual(['unknown']);
    const again = batch([item('P-1')], { store });
    expect(outcomes(await again.run)).toEqual([['skipped', ExitCode.rejected]]);
    expect(again.client.requests).toHaveLength(0);
    expect(store.calls.claim).toBe(2);
  });
});

describe('submitBatch: when it stops', () => {
  it('a 401 stops the batch: nothing more is claimed or sent, the rest skipped (exit 5)', async () => {
    const { store, client, run } = batch(items(5), { answer: failWith(new UnauthorizedError('401', { status: 401 })) });
    expect(outcomes(await run)).toEqual([['unauthorized', ExitCode.auth], ...Array(4).fill(['skipped', ExitCode.rejected])]);
    expect(client.requests).toHaveLength(1);
    expect(store.calls.claim).toBe(1);
    expect(answered(store)).toEqual(['unauthorized']);
  });

  it('a service that cannot be reached stops the batch: the rest skipped, not claimed', async () => {
    const { store, client, run } = batch(items(4), { answer: failWith(new ConnectionError('refused', { code: 'ECONNREFUSED', sent: false })) });
    expect(outcomes(await run)).toEqual([['unavailable', ExitCode.unavailable], ...Array(3).fill(['skipped', ExitCode.rejected])]);
    expect(client.requests).toHaveLength(1);
    expect(store.calls.claim).toBe(1);
  });

  it('a rejected file does not stop the batch', async () => {
    const answer: Answer = (body, n) => (n === 1 ? Promise.reject(new ValidationRejectedError('422', { status: 422 })) : accepted(`C-${String(body.idProposta)}`));
    const { client, run } = batch(items(3), { answer });
    expect(outcomes(await run)).toEqual([['rejected', ExitCode.rejected], ['accepted', 0], ['accepted', 0]]);
    expect(client.requests).toHaveLength(3);
  });

  it('Ctrl-C during a send: its answer is still awaited and recorded; nothing more is claimed or sent', async () => {
    const stop = new AbortController();
    const answer: Answer = (body) => {
      stop.abort();
      return accepted(`C-${String(body.idProposta)}`);
    };
    const { store, client, run } = batch(items(4), { answer, signal: stop.signal });
    expect(outcomes(await run)).toEqual([['accepted', 0], ...Array(3).fill(['skipped', ExitCode.rejected])]);
    expect(client.requests).toHaveLength(1);
    expect(store.calls.claim).toBe(1);
    expect(answered(store)).toEqual(['accepted']);
  });

  it('Ctrl-C between a claim and its send: not sent, the claim answered skipped, so the proposal is free for the next run', async () => {
    const store = new FakeStore();
    const stop = new AbortController();
    store.onClaim = () => stop.abort();
    const first = batch(items(2), { store, signal: stop.signal });
    expect(outcomes(await first.run)).toEqual([['skipped', ExitCode.rejected], ['skipped', ExitCode.rejected]]);
    expect(first.client.requests).toHaveLength(0);
    expect(store.calls.claim).toBe(1);
    expect(answered(store)).toEqual(['skipped']);

    store.onClaim = undefined;
    const again = batch(items(2), { store });
    expect(outcomes(await again.run)).toEqual([['accepted', 0], ['accepted', 0]]);
    expect(again.client.requests.map((b) => b.idProposta)).toEqual(['P-1', 'P-2']);
  });

  it('an aborted signal before the start: nothing claimed, nothing sent, every file skipped', async () => {
    const { store, client, run } = batch(items(3), { signal: AbortSignal.abort() });
    expect(outcomes(await run)).toEqual(Array(3).fill(['skipped', ExitCode.rejected]));
    expect(client.requests).toHaveLength(0);
    expect(store.calls.claim).toBe(0);
  });
});

describe('submitBatch: one proposal twice in a batch', () => {
  it('the same body twice is sent once; the copy shares the first result', async () => {
    const { store, client, run } = batch([item('P-1'), item('P-2'), item('P-1')], { concurrency: 3 });
    const results = await run;
    expect(outcomes(results)).toEqual([['accepted', 0], ['accepted', 0], ['accepted', 0]]);
    expect(results[2]).toMatchObject({ file: 'P-1.json', idContrato: 'C-P-1' });
    expect(client.requests.map((b) => b.idProposta).sort()).toEqual(['P-1', 'P-2']);
    expect(store.calls.claim).toBe(2);
  });

  it('different data under the same proposal: the later copy is skipped (exit 5) and names the first contract', async () => {
    const { client, run } = batch([item('P-1'), item('P-1', { valor: 2000 })], { concurrency: 2 });
    const results = await run;
    expect(outcomes(results)).toEqual([['accepted', 0], ['skipped', ExitCode.rejected]]);
    expect(results[1]?.idContrato).toBe('C-P-1');
    expect(client.requests).toHaveLength(1);
  });
});

describe('sendItems: items as they are read (a sheet streamed, issue 22)', () => {
  /** The items one by one, counting how many were read; each read waits a turn, as a file's would. */
  function reading(list: readonly SubmitItem[]): { items: AsyncGenerator<SubmitItem>; read: () => number } {
    let read = 0;
    async function* items(): AsyncGenerator<SubmitItem> {
      for (const one of list) {
        await new Promise((resolve) => setImmediate(resolve));
        read += 1;
        yield one;
      }
    }
    return { items: items(), read: () => read };
  }

  function stream(list: readonly SubmitItem[], options: Partial<BatchOptions> & { answer?: Answer; repeated?: Set<string> } = {}) {
    const store = new FakeStore();
    const source = reading(list);
    const settled: SubmitResult[] = [];
    const readAtSend: number[] = [];
    const client = fakeClient((body, n) => {
      readAtSend.push(source.read() - n);
      return (options.answer ?? acceptAll)(body, n);
    });
    const run = sendItems(source.items, {
      client,
      store,
      profile: 'default',
      baseUrl: BASE_URL,
      service: BASE_URL,
      concurrency: 2,
      force: false,
      signal: new AbortController().signal,
      now: () => new Date('2026-03-02T12:00:00Z'),
      repeated: options.repeated ?? new Set(),
      onSettled: (position, result) => void (settled[position] = result),
      ...options,
    });
    return { run, client, settled, readAtSend };
  }

  it('reads an item only as a slot frees: at each POST, at most `concurrency` items read ahead of those sent', async () => {
    const { run, client, settled, readAtSend } = stream(items(20), { concurrency: 2 });
    await run;
    expect(client.requests).toHaveLength(20);
    expect(outcomes(settled)).toEqual(Array(20).fill(['accepted', ExitCode.ok]));
    expect(Math.max(...readAtSend)).toBeLessThanOrEqual(2);
  });

  it('one proposal twice is sent once: a copy read before its first is settled waits for it, one read after is settled at once', async () => {
    // P-1's first answer comes last: its copies are read while it is in flight, and after.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const answer: Answer = async (body) => {
      if (body.idProposta === 'P-1') await held;
      else if (body.idProposta === 'P-4') release();
      return accepted(`C-${String(body.idProposta)}`);
    };
    const list = [item('P-1'), item('P-2'), item('P-1'), item('P-3'), item('P-4'), item('P-1', { valor: 2000 }), item('P-1')];
    const { run, client, settled } = stream(list, { answer, repeated: new Set(['P-1']), concurrency: 2 });
    await run;
    expect(client.requests.map((b) => b.idProposta).sort()).toEqual(['P-1', 'P-2', 'P-3', 'P-4']);
    expect(outcomes(settled)).toEqual([
      ['accepted', 0],
      ['accepted', 0],
      ['accepted', 0],
      ['accepted', 0],
      ['accepted', 0],
      ['skipped', ExitCode.rejected],
      ['accepted', 0],
    ]);
    expect([settled[2]?.idContrato, settled[5]?.idContrato, settled[6]?.idContrato]).toEqual(['C-P-1', 'C-P-1', 'C-P-1']);
  });

  it('a 404 does not stop the stream; a 401 does, and every item not read is still settled, skipped', async () => {
    const notFound = stream(items(6), { answer: (body) => (body.idProposta === 'P-2' ? Promise.reject(new ProposalNotFoundError('404', { status: 404 })) : accepted(`C-${String(body.idProposta)}`)) });
    await notFound.run;
    expect(notFound.client.requests).toHaveLength(6);
    expect(outcomes(notFound.settled).map(([o]) => o)).toEqual(['accepted', 'not_found', 'accepted', 'accepted', 'accepted', 'accepted']);
    const refused = stream(items(6), { concurrency: 1, answer: () => Promise.reject(new UnauthorizedError('401', { status: 401 })) });
    await refused.run;
    expect(refused.client.requests).toHaveLength(1);
    expect(outcomes(refused.settled).map(([o]) => o)).toEqual(['unauthorized', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
  });
});

describe('submitBatch: a proposal the record already holds', () => {
  /** A record where P-1 was sent with `body` and answered `answer` (and, optionally, its result came). */
  async function recorded(answer: Answer, result?: 'approved' | 'denied', body = item('P-1')): Promise<FakeStore> {
    const store = new FakeStore();
    await batch([body], { store, answer }).run;
    if (result) await store.recordResult({ idContrato: 'C-P-1', at: '2026-03-02T12:00:01Z', outcome: result, status: null, reason: null });
    return store;
  }

  it.each([
    ['accepted, same body', acceptAll, undefined, item('P-1'), 'accepted', ExitCode.ok],
    ['approved, same body', acceptAll, 'approved', item('P-1'), 'approved', ExitCode.ok],
    ['denied, same body', acceptAll, 'denied', item('P-1'), 'denied', ExitCode.denied],
    ['accepted, other data', acceptAll, undefined, item('P-1', { valor: 5 }), 'skipped', ExitCode.rejected],
    ['unknown', failWith(new ServerError('500', { status: 500 })), undefined, item('P-1'), 'skipped', ExitCode.rejected],
  ] as const)('%s: reported from the record as %s (exit %s), not sent', async (_name, answer, result, again, outcome, exitCode) => {
    const store = await recorded(answer, result);
    const second = batch([again], { store });
    const results = await second.run;
    expect(outcomes(results)).toEqual([[outcome, exitCode]]);
    expect(second.client.requests).toHaveLength(0);
    // Held: no claim is added, so no answer either.
    expect(store.submissions()).toHaveLength(1);
    if (outcome !== 'skipped') expect(results[0]?.idContrato).toBe('C-P-1');
  });

  it.each([
    ['rejected', failWith(new ValidationRejectedError('422', { status: 422 })), undefined],
    ['not found', failWith(new ProposalNotFoundError('404', { status: 404 })), undefined],
    ['denied, then corrected data', acceptAll, 'denied'],
  ] as const)('an earlier %s submission frees the proposal: sent again', async (_name, answer, result) => {
    const store = await recorded(answer, result);
    const second = batch([item('P-1', { valor: 2000 })], { store });
    expect(outcomes(await second.run)).toEqual([['accepted', 0]]);
    expect(second.client.requests).toHaveLength(1);
  });

  it('--force sends a held proposal again, and records the new claim', async () => {
    const store = await recorded(acceptAll);
    const second = batch([item('P-1')], { store, force: true });
    expect(outcomes(await second.run)).toEqual([['accepted', 0]]);
    expect(second.client.requests).toHaveLength(1);
    expect(store.submissions()).toHaveLength(2);
  });
});

describe('submitBatch: the record fails mid-batch', () => {
  /** The batch's failure, which must be StoreIncompleteError (exit 74). */
  async function storeIncomplete(run: Promise<SubmitResult[]>): Promise<StoreIncompleteError> {
    const error = await run.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(StoreIncompleteError);
    expect((error as StoreIncompleteError).exitCode).toBe(ExitCode.storage);
    return error as StoreIncompleteError;
  }

  it('a claim that cannot be recorded is not sent; nothing new is sent; StoreIncompleteError (74) carries every result', async () => {
    const store = new FakeStore();
    store.failFrom.claim = 3;
    const { client, run } = batch(items(5), { store });
    const incomplete = await storeIncomplete(run);
    expect(outcomes(incomplete.results)).toEqual([['accepted', 0], ['accepted', 0], ...Array(3).fill(['skipped', ExitCode.rejected])]);
    expect(incomplete.results.map((r) => r.idContrato)).toEqual(['C-P-1', 'C-P-2', null, null, null]);
    expect(client.requests).toHaveLength(2);
    expect(store.calls.claim).toBe(3);
  });

  it('an answer that cannot be recorded: the batch stops sending, and the results (contract ids included) are all in the error', async () => {
    const store = new FakeStore();
    store.failFrom.recordAnswer = 1;
    const { client, run } = batch(items(6), { store });
    const { results } = await storeIncomplete(run);
    expect(results).toHaveLength(6);
    const sent = results.filter((r) => r.outcome === 'accepted');
    expect(sent.length).toBe(client.requests.length);
    expect(sent.length).toBeLessThan(6);
    expect(sent.map((r) => r.idContrato)).toEqual(client.requests.map((b) => `C-${String(b.idProposta)}`));
    expect(results.filter((r) => r.outcome !== 'accepted').every((r) => r.outcome === 'skipped' && r.idContrato === null)).toBe(true);
  });

  /** A keeper that keeps in memory, or refuses as a full disk would. */
  function keeper(refuse = false) {
    const kept: Array<{ ref: string; idProposta: string; outcome: string; idContrato: string | null }> = [];
    return {
      kept,
      file: '/home/x/unrecorded-answers.jsonl',
      keep(ref: string, idProposta: string, answer: { outcome: string; idContrato: string | null }) {
        if (refuse) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        kept.push({ ref, idProposta, outcome: answer.outcome, idContrato: answer.idContrato });
      },
    };
  }

  it('the answers the store refuses are kept aside, each with its claim: the hint says where and that the next run records them', async () => {
    const store = new FakeStore();
    store.failFrom.recordAnswer = 2;
    const aside = keeper();
    const { client, run } = batch(items(4), { store, keeper: aside, answer: (body, n) => (n === 2 ? Promise.reject(new ValidationRejectedError('422', { status: 422 })) : acceptAll(body, n)) });
    const error = await storeIncomplete(run);
    const refused = store.calls.recordAnswer - 1;
    expect(refused).toBeGreaterThan(0);
    expect(aside.kept).toHaveLength(refused);
    expect(error.aside).toEqual({ file: aside.file, kept: refused, unrecorded: [] });
    const claims = new Map(store.submissions().map((s) => [s.ref, s.idProposta]));
    for (const k of aside.kept) expect(claims.get(k.ref)).toBe(k.idProposta);
    expect(aside.kept.map((k) => k.idProposta)).toEqual(client.requests.slice(1).map((b) => b.idProposta));
    expect(error.hintText?.key).toMatch(/^run\.answersKept(One)?$/);
    expect(error.hint).toContain(aside.file);
  });

  it('when they cannot be kept aside either, the hint names the command that records each: the contract, or not sent', async () => {
    const store = new FakeStore();
    store.failFrom.recordAnswer = 1;
    const { client, run } = batch(items(3), { store, keeper: keeper(true), concurrency: 2, answer: (body, n) => (n === 2 ? Promise.reject(new ValidationRejectedError('422', { status: 422 })) : acceptAll(body, n)) });
    const error = await storeIncomplete(run);
    expect(error.aside.kept).toBe(0);
    expect(error.aside.unrecorded).toHaveLength(client.requests.length);
    expect(error.hintText?.key).toMatch(/^run\.answersUnrecorded(One)?$/);
    for (const body of client.requests) {
      const id = String(body.idProposta);
      const unrecorded = error.aside.unrecorded.find((u) => u.idProposta === id);
      expect(error.hint).toContain(unrecorded?.outcome === 'accepted' ? `econsig settle ${id} --contract C-${id}` : `econsig settle ${id} --not-sent`);
    }
    expect(error.aside.unrecorded.some((u) => u.outcome === 'rejected')).toBe(true);
  });
});

describe('submitBatch: --wait', () => {
  /** A waiter that knows the given results and answers null (timeout) for the rest. */
  function waiter(known: Record<string, ContractResult>): ResultWaiter & { asked: string[] } {
    const asked: string[] = [];
    return {
      mode: { kind: 'listening', url: 'http://127.0.0.1:9/webhook' },
      asked,
      async waitFor(idContrato) {
        asked.push(idContrato);
        return known[idContrato] ?? null;
      },
      async close() {},
    };
  }

  it('each accepted contract is awaited: approved (0), denied (8); a live result is recorded, one from the store is not; none within the timeout: timeout (9)', async () => {
    const w = waiter({
      'C-P-1': { idContrato: 'C-P-1', outcome: 'approved', status: 'APROVADO', reason: null, source: 'live' },
      'C-P-2': { idContrato: 'C-P-2', outcome: 'denied', status: 'REPROVADO', reason: 'margem', source: 'store' },
    });
    const { store, run } = batch(items(3), { concurrency: 3, wait: { waiter: w, timeoutMs: 1000 } });
    const results = await run;
    expect(outcomes(results)).toEqual([['approved', 0], ['denied', ExitCode.denied], ['timeout', ExitCode.timeout]]);
    expect(results.map((r) => r.result?.source ?? null)).toEqual(['live', 'store', null]);
    expect(w.asked.sort()).toEqual(['C-P-1', 'C-P-2', 'C-P-3']);
    expect(store.calls.recordResult).toBe(1);
  });

  it('a file that was not accepted is not awaited', async () => {
    const w = waiter({});
    const { run } = batch([item('P-1')], { answer: failWith(new ValidationRejectedError('422', { status: 422 })), wait: { waiter: w, timeoutMs: 1000 } });
    expect(outcomes(await run)).toEqual([['rejected', ExitCode.rejected]]);
    expect(w.asked).toEqual([]);
  });
});
