/**
 * The record's contract (src/record/record.ts), written once and run against every engine
 * (keyv's one test suite for every adapter): sqlite.test.ts and postgres.test.ts call
 * `recordContract`. An engine is done when this passes on it; a check added here is a
 * check for both. What only one engine has (file modes, schema versions, LISTEN, a
 * database that goes away) stays in that engine's file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnswerRecord, type ClaimRequest, holdsProposal, type RunStart, type Store, type StoreNotice } from '../../../src/record/record.js';
import type { DeliveryRecord } from '../../../src/webhook/delivery.js';

/** A fresh, empty record of one engine, for one test. */
export interface RecordUnderTest {
  /** Another connection to this record (another process, as far as the engine knows). */
  open(): Promise<Store>;
  /** Rows in one of the record's tables (named as in SQLite), counted with the engine's own client. */
  count(table: 'submissions' | 'deliveries' | 'results' | 'deletions'): Promise<number>;
  /** Every row of every table, as text, read with the engine's own tools (a backup's view). */
  dump(): Promise<string>;
  /** Damages the first answer's `erros` as a broken disk or a hand edit could. */
  damageFirstAnswer(): Promise<void>;
  /** Makes every delivery still unshown an hour older (its receiver stopped before showing it, long ago). */
  ageUnshown(): Promise<void>;
  /**
   * Writes the record as the released schema before service keys (issue 22) left it, with
   * these submissions keyed on their base URL as typed (and, in PostgreSQL, a proposals row
   * for each spelling), then opens it as this econsig does, collecting what opening said.
   */
  openBeforeServiceKeys(rows: readonly ReleasedSubmission[], onNotice: (notice: StoreNotice) => void): Promise<Store>;
  /** Removes what the record left behind (stores opened by `open` are closed by the suite). */
  dispose(): Promise<void>;
}

/** A submission as an econsig before service keys recorded it. */
export interface ReleasedSubmission {
  idProposta: string;
  baseUrl: string;
  answer: AnswerRecord | null;
}

export const claimOf = (idProposta: string, extra: Partial<ClaimRequest> = {}): ClaimRequest => ({
  idProposta,
  service: 'http://127.0.0.1:4010',
  baseUrl: 'http://127.0.0.1:4010',
  bodyHash: 'h1',
  file: `${idProposta}.json`,
  profile: 'default',
  at: new Date().toISOString(),
  force: false,
  ...extra,
});

export const answerOf = (outcome: string, idContrato: string | null = null, httpStatus: number | null = 202): AnswerRecord => ({
  at: new Date().toISOString(),
  outcome,
  httpStatus,
  idContrato,
  erros: outcome === 'rejected' ? [{ codigo: 'SVC_X', msg: 'no' }] : [],
  message: outcome,
});

export const deliveryOf = (extra: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  receivedAt: new Date().toISOString(),
  webhookId: 'w1',
  bodyHash: 'b1',
  idContrato: 'C-9',
  idProposta: 'P9',
  status: 'APROVADO',
  outcome: 'approved',
  reason: null,
  verified: null,
  payload: '{}',
  ...extra,
});

export const runOf = (id: string): RunStart => ({
  id,
  startedAt: new Date().toISOString(),
  command: 'econsig submit lote.csv --token [redacted]',
  profile: 'default',
  baseUrl: 'http://127.0.0.1:4010',
  service: 'http://127.0.0.1:4010',
  lang: 'pt-BR',
  by: { user: 'ana', host: 'desk-1', ci: null },
  pid: 4242,
  leaseUntil: new Date(Date.now() + 30_000).toISOString(),
});

/** Claims a proposal that must be free; its ref. */
export async function claimed(store: Store, idProposta: string, extra: Partial<ClaimRequest> = {}): Promise<string> {
  const claim = await store.claim(claimOf(idProposta, extra));
  if (claim.kind !== 'claimed') throw new Error(`${idProposta} was not claimed`);
  return claim.ref;
}

export function recordContract(name: string, fresh: () => Promise<RecordUnderTest>): void {
  describe(`the record's contract: ${name}`, () => {
    let record: RecordUnderTest;
    const stores: Store[] = [];
    const open = async (): Promise<Store> => {
      const store = await record.open();
      stores.push(store);
      return store;
    };
    beforeEach(async () => {
      record = await fresh();
    });
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      await record.dispose();
    });

    it('claims a free proposal once; the second claim is held by the first; another service is another guard', async () => {
      const store = await open();
      const first = await store.claim(claimOf('P1'));
      expect(first.kind).toBe('claimed');
      const second = await store.claim(claimOf('P1'));
      expect(second.kind).toBe('held');
      if (second.kind === 'held' && first.kind === 'claimed') {
        expect(second.earlier.ref).toBe(first.ref);
        expect(second.earlier.answer).toBeNull();
      }
      expect((await store.claim(claimOf('P1', { service: 'https://homolog.example', baseUrl: 'https://homolog.example' }))).kind).toBe('claimed');
      // The guard keys on the service, not on how the base URL is spelled.
      expect((await store.claim(claimOf('P1', { baseUrl: 'http://localhost:4010/' }))).kind).toBe('held');
    });

    it('opening a record written before service keys keys every submission on its service and merges the spellings of one service, saying how many', async () => {
      const released: ReleasedSubmission[] = [
        // The six-contract case: one proposal, one sandbox, several spellings.
        { idProposta: 'P1', baseUrl: 'http://127.0.0.1:4111', answer: answerOf('accepted', 'C-1a') },
        { idProposta: 'P1', baseUrl: 'http://localhost:4111', answer: answerOf('accepted', 'C-1b') },
        { idProposta: 'P1', baseUrl: 'HTTP://127.0.0.1:4111', answer: answerOf('accepted', 'C-1c') },
        { idProposta: 'P2', baseUrl: 'http://0x7f000001:4111', answer: answerOf('rejected', null, 422) },
        { idProposta: 'P2', baseUrl: 'http://127.1:4111', answer: null },
        { idProposta: 'P3', baseUrl: 'http://127.0.0.1:4111', answer: answerOf('accepted', 'C-3') },
        { idProposta: 'P4', baseUrl: 'https://h.example:443', answer: answerOf('accepted', 'C-4') },
        { idProposta: 'P4', baseUrl: 'https://H.example', answer: answerOf('rejected', null, 422) },
        { idProposta: 'P5', baseUrl: 'not a url', answer: answerOf('accepted', 'C-5') },
      ];
      const notices: StoreNotice[] = [];
      const store = await record.openBeforeServiceKeys(released, (notice) => notices.push(notice));
      stores.push(store);
      expect(notices).toEqual([{ kind: 'servicesMerged', proposals: 3, submissions: 7 }]);
      const entries = (await store.history({ limit: 100 })).entries;
      expect(entries.map((e) => [e.idProposta, e.service, e.baseUrl]).reverse()).toEqual(released.map((r) => [r.idProposta, expect.any(String), r.baseUrl]));
      expect(new Set(entries.filter((e) => e.idProposta !== 'P5').map((e) => e.service))).toEqual(new Set(['http://127.0.0.1:4111', 'https://h.example']));
      expect(entries.find((e) => e.idProposta === 'P5')?.service).toBe('not a url');
      // One guard per service now: every spelling is held by what any spelling sent.
      for (const proposal of ['P1', 'P2', 'P3']) expect((await store.claim(claimOf(proposal, { service: 'http://127.0.0.1:4111' }))).kind, proposal).toBe('held');
      expect((await store.claim(claimOf('P4', { service: 'https://h.example' }))).kind).toBe('held');
      // Opened again: nothing more to merge, nothing said.
      await store.close();
      stores.splice(stores.indexOf(store), 1);
      await open();
      expect(notices).toHaveLength(1);
    });

    it('settle answers the newest unknown submission of a proposal at its service: a contract, or not sent', async () => {
      const store = await open();
      const at = new Date().toISOString();
      const accepted = { at, outcome: 'accepted', httpStatus: null, idContrato: 'C-9', erros: [], message: 'settled' };
      const notSent = { at, outcome: 'skipped', httpStatus: null, idContrato: null, erros: [], message: 'settled' };
      // Claimed, no answer (the process died): the operator learned its contract.
      const ref1 = await claimed(store, 'P1');
      const settled = await store.settle({ idProposta: 'P1', service: claimOf('P1').service, answer: accepted });
      expect(settled).toMatchObject({ ref: ref1, idProposta: 'P1', answer: { outcome: 'accepted', idContrato: 'C-9' } });
      const again = await store.claim(claimOf('P1'));
      expect(again.kind).toBe('held');
      if (again.kind === 'held') expect(again.earlier.answer).toMatchObject({ outcome: 'accepted', idContrato: 'C-9' });
      // Answered unknown: it never arrived, so it is free again.
      await store.recordAnswer(await claimed(store, 'P2'), answerOf('unknown'));
      expect(await store.settle({ idProposta: 'P2', service: claimOf('P2').service, answer: notSent })).toMatchObject({ answer: { outcome: 'skipped' } });
      expect((await store.claim(claimOf('P2'))).kind).toBe('claimed');
      // Nothing unknown: never claimed, answered, or at another service.
      expect(await store.settle({ idProposta: 'P3', service: claimOf('P3').service, answer: notSent })).toBeNull();
      expect(await store.settle({ idProposta: 'P1', service: claimOf('P1').service, answer: notSent })).toBeNull();
      await claimed(store, 'P4');
      expect(await store.settle({ idProposta: 'P4', service: 'https://homolog.example', answer: notSent })).toBeNull();
      expect((await store.history({ idProposta: 'P4', limit: 10 })).entries[0]?.answer).toBeNull();
    });

    it('claims asked for at once still see each other', async () => {
      const store = await open();
      const [a, b, c] = await Promise.all([store.claim(claimOf('P1')), store.claim(claimOf('P1')), store.claim(claimOf('P2'))]);
      expect([a?.kind, b?.kind].sort()).toEqual(['claimed', 'held']);
      expect(c?.kind).toBe('claimed');
    });

    it('5 stores (processes) claiming the same 20 proposals at once, twice each: each proposal is claimed exactly once', async () => {
      const all = await Promise.all(Array.from({ length: 5 }, () => open()));
      const claims = await Promise.all(
        all.flatMap((s) => Array.from({ length: 20 }, (_, i) => s.claim(claimOf(`P${i}`)))).concat(all.flatMap((s) => Array.from({ length: 20 }, (_, i) => s.claim(claimOf(`P${19 - i}`))))),
      );
      expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(20);
      expect(await record.count('submissions')).toBe(20);
      expect(new Set((await all[0]!.history({ limit: 100 })).entries.map((e) => e.idProposta)).size).toBe(20);
    });

    it.each([
      ['rejected', null, false],
      ['not_found', null, false],
      ['unauthorized', null, false],
      ['unknown', null, true],
      ['accepted', 'C-1', true],
    ])('an answer %s leaves the proposal held: %s', async (outcome, contract, held) => {
      const store = await open();
      await store.recordAnswer(await claimed(store, 'P1'), answerOf(outcome, contract));
      expect((await store.claim(claimOf('P1'))).kind).toBe(held ? 'held' : 'claimed');
    });

    it('an approved contract holds the proposal; a denied one holds it against the same body only; a cancelled one frees it', async () => {
      const store = await open();
      for (const [proposal, outcome, held] of [
        ['P1', 'approved', true],
        ['P2', 'denied', true],
        ['P3', 'cancelled', false],
      ] as const) {
        await store.recordAnswer(await claimed(store, proposal), answerOf('accepted', `C-${proposal}`));
        await store.recordResult({ idContrato: `C-${proposal}`, at: new Date().toISOString(), outcome, status: null, reason: null });
        const again = await store.claim(claimOf(proposal));
        expect(again.kind, proposal).toBe(held ? 'held' : 'claimed');
        if (again.kind === 'held') {
          expect(again.earlier.result?.outcome).toBe(outcome);
          expect(holdsProposal(again.earlier, again.earlier.bodyHash)).toBe(true);
        }
      }
      // Corrected data after a denial may go: only the very same body is held.
      expect((await store.claim(claimOf('P2', { bodyHash: 'h2' }))).kind).toBe('claimed');
    });

    it('a rejected resend does not free a proposal whose earlier contract is still accepted', async () => {
      const store = await open();
      await store.recordAnswer(await claimed(store, 'P1'), answerOf('accepted', 'C-1'));
      const forced = await store.claim(claimOf('P1', { force: true }));
      expect(forced.kind).toBe('claimed');
      if (forced.kind !== 'claimed') return;
      expect(forced.overridden?.answer?.idContrato).toBe('C-1');
      await store.recordAnswer(forced.ref, answerOf('rejected', null, 422));
      const third = await store.claim(claimOf('P1'));
      expect(third.kind).toBe('held');
      if (third.kind === 'held') expect(third.earlier.answer?.idContrato).toBe('C-1');
    });

    it('a delivery is stored once: the same webhook-id or the same body is a duplicate, from another connection too', async () => {
      const store = await open();
      expect(await store.recordDelivery(deliveryOf())).toBe('stored');
      expect(await store.recordDelivery(deliveryOf({ bodyHash: 'b2' }))).toBe('duplicate');
      expect(await store.recordDelivery(deliveryOf({ webhookId: 'w2' }))).toBe('duplicate');
      expect(await store.recordDelivery(deliveryOf({ webhookId: null, bodyHash: 'b3' }))).toBe('stored');
      expect((await store.resultOf('C-9'))?.outcome).toBe('approved');
      // Two processes on one record: the unique constraints hold across connections (once the receiver has shown what it stored).
      await store.markShown('b1');
      await store.markShown('b3');
      const other = await open();
      expect(await other.recordDelivery(deliveryOf({ bodyHash: 'b4' }))).toBe('duplicate');
      expect(await record.count('deliveries')).toBe(2);
    });

    it('the same delivery received by two connections at once is stored once', async () => {
      const [a, b] = [await open(), await open()];
      const at = await Promise.all([a.recordDelivery(deliveryOf()), b.recordDelivery(deliveryOf()), a.recordDelivery(deliveryOf({ bodyHash: 'b2' })), b.recordDelivery(deliveryOf({ webhookId: 'w2' }))]);
      expect(at.filter((x) => x === 'stored')).toHaveLength(1);
      expect(await a.recordDelivery(deliveryOf({ webhookId: null, bodyHash: 'b3' }))).toBe('stored');
      expect((await b.resultOf('C-9'))?.outcome).toBe('approved');
      expect(await record.count('deliveries')).toBe(2);
    });

    it('deliveries arriving together: duplicates among them are found, each answer is its own, close waits for writes under way', async () => {
      const store = await open();
      const burst = Array.from({ length: 50 }, (_, i) => deliveryOf({ webhookId: `w${i % 20}`, bodyHash: `b${i}`, idContrato: `C-${i % 20}` }));
      const answers = await Promise.all(burst.map((d) => store.recordDelivery(d)));
      for (let id = 0; id < 20; id++) expect(answers.filter((a, i) => i % 20 === id && a === 'stored'), `w${id}`).toHaveLength(1);
      expect(answers.filter((a) => a === 'duplicate')).toHaveLength(30);
      expect(await record.count('deliveries')).toBe(20);
      expect(await record.count('results')).toBe(20);
      const late = store.recordDelivery(deliveryOf({ webhookId: 'late', bodyHash: 'late' }));
      await store.close();
      expect(await late).toBe('stored');
    });

    it('a delivery being shown: a copy is a duplicate to the process showing it, `showing` to another; once marked shown, a duplicate to all', async () => {
      const [store, other] = [await open(), await open()];
      const [first, copy] = await Promise.all([store.recordDelivery(deliveryOf()), store.recordDelivery(deliveryOf())]);
      expect([first, copy]).toEqual(['stored', 'duplicate']);
      expect(await store.recordDelivery(deliveryOf({ bodyHash: 'b2' }))).toBe('duplicate');
      expect(await other.recordDelivery(deliveryOf({ webhookId: 'w2' }))).toBe('showing');
      await store.markShown('b1');
      expect(await other.recordDelivery(deliveryOf())).toBe('duplicate');
      expect(await store.recordDelivery(deliveryOf())).toBe('duplicate');
    });

    it('a delivery left unshown (its receiver stopped before showing it) is handed to one caller of its retries, whichever connection', async () => {
      const stopped = await open();
      expect(await stopped.recordDelivery(deliveryOf())).toBe('stored');
      await record.ageUnshown();
      const [a, b] = [await open(), await open()];
      const retries = await Promise.all([a.recordDelivery(deliveryOf()), b.recordDelivery(deliveryOf({ bodyHash: 'b2' })), a.recordDelivery(deliveryOf({ webhookId: 'w2' })), b.recordDelivery(deliveryOf())]);
      expect(retries.filter((fate) => fate === 'unshown')).toHaveLength(1);
      expect(retries.filter((fate) => fate === 'duplicate')).toHaveLength(3);
      expect(await stopped.recordDelivery(deliveryOf())).toBe('duplicate');
      expect(await record.count('deliveries')).toBe(1);
    });

    it("the journal's deliveries were shown by the build that kept them: their retries are duplicates", async () => {
      const store = await open();
      await store.importLegacy([{ kind: 'delivery', delivery: deliveryOf() }]);
      await record.ageUnshown();
      expect(await store.recordDelivery(deliveryOf())).toBe('duplicate');
      expect(await (await open()).recordDelivery(deliveryOf())).toBe('duplicate');
    });

    it('a field holding U+0000 (escaped in the JSON) is stored, not refused forever', async () => {
      const store = await open();
      expect(await store.recordDelivery(deliveryOf({ idContrato: 'C-\u0000-1', payload: '{"idContrato":"C-\\u0000-1"}' }))).toBe('stored');
      expect((await store.resultOf('C-\u0000-1'))?.outcome).toBe('approved');
    });

    it('an unknown status is stored but is not a result', async () => {
      const store = await open();
      expect(await store.recordDelivery(deliveryOf({ status: 'EM_ANALISE', outcome: 'unknown' }))).toBe('stored');
      expect(await store.resultOf('C-9')).toBeNull();
    });

    it('follows results recorded by another connection after it started', async () => {
      const [store, other] = [await open(), await open()];
      await other.recordResult({ idContrato: 'C-old', at: new Date().toISOString(), outcome: 'approved', status: null, reason: null });
      const seen: string[] = [];
      const stop = new AbortController();
      await store.followResults((r) => seen.push(r.idContrato), { signal: stop.signal, intervalMs: 10 });
      await other.recordResult({ idContrato: 'C-new', at: new Date().toISOString(), outcome: 'denied', status: null, reason: 'no' });
      await expect.poll(() => seen, { timeout: 2_000 }).toEqual(['C-new']);
      stop.abort();
    });

    it('history filters in the engine, newest first, and counts how many more', async () => {
      const store = await open();
      for (let i = 0; i < 30; i++) {
        const ref = await claimed(store, `P${i}`, { at: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z` });
        await store.recordAnswer(ref, i % 3 === 0 ? answerOf('rejected', null, 422) : answerOf('accepted', `C-${i}`));
      }
      const page = await store.history({ limit: 20 });
      expect(page.entries).toHaveLength(20);
      expect(page.entries[0]?.idProposta).toBe('P29');
      expect(page.entries[0]?.sentAt).toBe('2026-01-01T00:00:29.000Z');
      expect(page.more).toBe(10);
      expect((await store.history({ idProposta: 'P3', limit: 20 })).entries.map((e) => e.answer?.erros[0]?.codigo)).toEqual(['SVC_X']);
      expect((await store.history({ idContrato: 'C-4', limit: 20 })).entries.map((e) => e.idProposta)).toEqual(['P4']);
      expect((await store.history({ outcome: 'rejected', limit: 100 })).entries).toHaveLength(10);
      expect((await store.history({ since: '2026-01-01T00:00:25.000Z', limit: 100 })).entries).toHaveLength(5);
    });

    it('events lists deliveries newest first, filtered in the engine, with their headers, duplicates and forwards; one is found by its id or its webhook-id', async () => {
      const store = await open();
      const outcomes = ['approved', 'denied', 'cancelled'] as const;
      for (let i = 0; i < 30; i++) {
        const at = `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`;
        const fate = await store.recordDelivery(
          deliveryOf({ receivedAt: at, webhookId: `w${i}`, bodyHash: `b${i}`, idContrato: `C-${i}`, idProposta: `P${i % 10}`, outcome: outcomes[i % 3]!, payload: `{"n":${i}}`, headers: { 'content-type': 'application/json', 'webhook-signature': '[redacted]' } }),
        );
        expect(fate).toBe('stored');
      }
      await Promise.all(Array.from({ length: 30 }, (_, i) => store.markShown(`b${i}`)));
      // Two more copies of w7 (by webhook-id, by body): counted on the kept one.
      expect(await store.recordDelivery(deliveryOf({ webhookId: 'w7', bodyHash: 'other' }))).toBe('duplicate');
      expect(await (await open()).recordDelivery(deliveryOf({ webhookId: 'w-other', bodyHash: 'b7' }))).toBe('duplicate');
      await store.recordForward('b7', { at: '2026-01-02T00:00:00.000Z', url: 'http://127.0.0.1:3000/hook', httpStatus: 500, error: null });
      const page = await store.events({ limit: 20 });
      expect(page.events.map((e) => e.webhookId).slice(0, 3)).toEqual(['w29', 'w28', 'w27']);
      expect(page.more).toBe(10);
      expect(page.events[0]).toMatchObject({ receivedAt: '2026-01-01T00:00:29.000Z', idContrato: 'C-29', idProposta: 'P9', outcome: 'cancelled', payload: '{"n":29}', payloadDroppedAt: null, duplicates: 0, forward: null });
      expect(page.events[0]?.headers).toEqual({ 'content-type': 'application/json', 'webhook-signature': '[redacted]' });
      expect((await store.events({ idProposta: 'P7', limit: 10 })).events.map((e) => e.webhookId)).toEqual(['w27', 'w17', 'w7']);
      expect((await store.events({ idContrato: 'C-4', limit: 10 })).events.map((e) => e.webhookId)).toEqual(['w4']);
      expect((await store.events({ outcome: 'denied', limit: 100 })).events).toHaveLength(10);
      expect((await store.events({ since: '2026-01-01T00:00:25.000Z', limit: 100 })).events).toHaveLength(5);
      const next = await store.events({ pastId: page.events.at(-1)!.id, limit: 100 });
      expect(next.events.map((e) => e.webhookId)).toEqual(Array.from({ length: 10 }, (_, i) => `w${9 - i}`));
      const oldest = await store.events({ oldestFirst: true, since: '2026-01-01T00:00:25.000Z', limit: 2 });
      expect([oldest.events.map((e) => e.webhookId), oldest.more]).toEqual([['w25', 'w26'], 3]);
      const after = await store.events({ oldestFirst: true, since: '2026-01-01T00:00:25.000Z', pastId: oldest.events[1]!.id, limit: 10 });
      expect(after.events.map((e) => e.webhookId)).toEqual(['w27', 'w28', 'w29']);
      const seventh = await store.event('w7');
      expect(seventh).toMatchObject({ webhookId: 'w7', duplicates: 2, forward: { at: '2026-01-02T00:00:00.000Z', url: 'http://127.0.0.1:3000/hook', httpStatus: 500, error: null } });
      expect(await store.event(String(seventh!.id))).toEqual(seventh);
      expect(await store.event('nothing')).toBeNull();
      expect(await store.event('999999')).toBeNull();
    });

    it("a delivery's body is dropped once older than the retention; what econsig needs of it stays; none left costs no write", async () => {
      const store = await open();
      await store.recordDelivery(deliveryOf({ receivedAt: '2026-01-01T00:00:00.000Z', payload: '{"old":"body-1"}' }));
      await store.recordDelivery(deliveryOf({ receivedAt: '2026-03-01T00:00:00.000Z', webhookId: 'w2', bodyHash: 'b2', idContrato: 'C-10', payload: '{"new":"body-2"}' }));
      expect(await store.dropBodies('2026-02-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z')).toBe(1);
      expect(await store.dropBodies('2026-02-01T00:00:00.000Z', '2026-03-03T00:00:00.000Z')).toBe(0);
      const dump = await record.dump();
      expect(dump).not.toContain('body-1');
      expect(dump).toContain('body-2');
      // Ids, status, verification and hashes stay: a redelivery is still a duplicate, the result still known.
      expect(await store.recordDelivery(deliveryOf({ receivedAt: '2026-03-05T00:00:00.000Z' }))).toBe('duplicate');
      expect((await store.resultOf('C-9'))?.outcome).toBe('approved');
      expect(await record.count('deliveries')).toBe(2);
    });

    it('prune drops what is older and not needed; every submission that holds a proposal stays, with its result', async () => {
      const store = await open();
      const old = '2025-01-01T00:00:00.000Z';
      const answer = async (proposal: string, outcome: string, contract: string | null, at = old): Promise<void> =>
        store.recordAnswer(await claimed(store, proposal, { at }), answerOf(outcome, contract));
      await answer('P-approved', 'accepted', 'C-1');
      await store.recordResult({ idContrato: 'C-1', at: old, outcome: 'approved', status: 'APROVADO', reason: null });
      await answer('P-rejected', 'rejected', null);
      await answer('P-unknown', 'unknown', null);
      await claimed(store, 'P-in-flight', { at: old });
      await answer('P-rejected-new', 'rejected', null, '2026-06-01T00:00:00.000Z');
      await store.recordResult({ idContrato: 'C-nobody', at: old, outcome: 'denied', status: null, reason: 'r' });
      await store.recordDelivery(deliveryOf({ receivedAt: old, idContrato: 'C-1' }));
      await store.recordDelivery(deliveryOf({ receivedAt: '2026-06-01T00:00:00.000Z', webhookId: 'w2', bodyHash: 'b2' }));
      await store.startRun({ ...runOf('r-20250101-0000-old'), startedAt: old });
      await store.recordRunInputs('r-20250101-0000-old', [{ file: 'p.json', row: null, idProposta: 'P-rejected', outcome: 'invalid', ref: null, reason: null }]);
      await store.startRun(runOf('r-20260601-0000-new'));

      expect(await store.prune('2026-01-01T00:00:00.000Z')).toEqual({ before: '2026-01-01T00:00:00.000Z', deliveries: 1, submissions: 1, results: 1 });
      expect(await record.count('submissions')).toBe(4);
      expect(await record.count('deliveries')).toBe(1);
      for (const [proposal, held] of [['P-approved', true], ['P-unknown', true], ['P-in-flight', true], ['P-rejected', false]] as const) {
        expect((await store.claim(claimOf(proposal))).kind, proposal).toBe(held ? 'held' : 'claimed');
      }
      expect((await store.resultOf('C-1'))?.outcome).toBe('approved');
      expect(await store.resultOf('C-nobody')).toBeNull();
      expect((await store.history({ limit: 10 })).unreadable).toEqual([]);
      // A run started before it goes whole; a later one stays.
      expect((await store.runs({ limit: 10 })).map((r) => r.run.id)).toEqual(['r-20260601-0000-new']);
      expect(await store.runInputs('r-20250101-0000-old')).toEqual([]);
    });

    it("forget --cpf clears every personal field of the person, keeps the other person's and the guard, and records the deletion", async () => {
      const store = await open();
      const maria = { cpf: '52998224725', name: 'Maria da Silva', account: '1234567-8' };
      const ref = await claimed(store, 'P-maria', { file: `lote/${maria.cpf}-maria.json` });
      await store.recordAnswer(ref, { ...answerOf('accepted', 'C-maria'), message: 'contract C-maria' });
      const payload = (who: typeof maria, contract: string) =>
        JSON.stringify({ idContrato: contract, status: 'REPROVADO', motivo: `margem de ${who.name}`, trabalhador: { nome: who.name, cpf: who.cpf }, contaBancaria: { conta: who.account, chavePix: who.cpf } });
      await store.recordDelivery(deliveryOf({ idContrato: 'C-maria', idProposta: 'P-maria', status: 'REPROVADO', outcome: 'denied', reason: `margem de ${maria.name}`, payload: payload(maria, 'C-maria') }));
      // A second delivery quoting her punctuated CPF and naming no proposal: found by its body.
      await store.recordDelivery(deliveryOf({ webhookId: 'w2', bodyHash: 'b2', idContrato: null, idProposta: null, outcome: 'unknown', payload: '{"cpf":"529.982.247-25"}' }));
      const joao = { cpf: '11144477735', name: 'João Souza', account: '98765-4' };
      await store.recordAnswer(await claimed(store, 'P-joao', { file: 'joao.json' }), answerOf('accepted', 'C-joao'));
      await store.recordDelivery(deliveryOf({ webhookId: 'w3', bodyHash: 'b3', idContrato: 'C-joao', idProposta: 'P-joao', payload: payload(joao, 'C-joao') }));
      // Her run's inputs: one sent (its proposal), one an invalid file named after her CPF; João's stays.
      await store.startRun(runOf('r-20260201-0000-f0r'));
      await store.recordRunInputs('r-20260201-0000-f0r', [
        { file: `lote/${maria.cpf}-maria.json`, row: null, idProposta: 'P-maria', outcome: 'sent', ref, reason: null },
        { file: `lote/${maria.cpf}-v2.json`, row: null, idProposta: null, outcome: 'invalid', ref: null, reason: 'not JSON' },
        { file: 'joao.json', row: null, idProposta: 'P-joao', outcome: 'invalid', ref: null, reason: `${joao.name}: not JSON` },
      ]);
      const target = { kind: 'cpf', cpf: maria.cpf } as const;
      const before = await record.dump();

      const dry = await store.forget({ target, dryRun: true, at: '2026-02-01T00:00:00.000Z', by: 'tester' });
      expect(dry).toMatchObject({ dryRun: true, proposals: ['P-maria'], contracts: ['C-maria'], rows: { submissions: 1, answers: 1, results: 1, deliveries: 2, runInputs: 2 }, deletion: null, earlier: [] });
      expect(await record.dump(), 'a dry run changes nothing').toBe(before);
      expect(await record.count('deletions')).toBe(0);

      const done = await store.forget({ target, dryRun: false, at: '2026-02-01T00:00:00.000Z', by: 'tester' });
      expect(done).toMatchObject({ proposals: ['P-maria'], contracts: ['C-maria'], rows: { submissions: 1, answers: 1, results: 1, deliveries: 2, runInputs: 2 } });
      expect(done.deletion).toMatchObject({ kind: 'cpf', rows: 7, by: 'tester', at: expect.stringMatching(/^2026-02-01T00:00:00/) });
      expect(done.deletion?.identifierHash).toMatch(/^[0-9a-f]{64}$/);
      const after = await record.dump();
      for (const gone of [maria.cpf, '529.982.247-25', maria.name, maria.account]) expect(after, gone).not.toContain(gone);
      for (const kept of [joao.cpf, joao.name, joao.account, 'P-maria', 'C-maria']) expect(after, kept).toContain(kept);

      // The guard still holds: the claim, the contract id and the body hash stay.
      const again = await store.claim(claimOf('P-maria'));
      expect(again.kind).toBe('held');
      if (again.kind === 'held') expect(again.earlier).toMatchObject({ idProposta: 'P-maria', file: null, bodyHash: 'h1', answer: { outcome: 'accepted', idContrato: 'C-maria', message: null, erros: [] } });
      expect((await store.resultOf('C-maria'))?.outcome).toBe('denied');

      // Asked again, from another connection: nothing left, and the first deletion is found by its hash (one salt per store).
      const other = await open();
      const second = await other.forget({ target: { kind: 'cpf', cpf: maria.cpf }, dryRun: true, at: '2026-02-02T00:00:00.000Z', by: null });
      expect(second.rows).toEqual({ submissions: 0, answers: 0, results: 0, deliveries: 0, runInputs: 0 });
      expect(second.earlier).toEqual([done.deletion]);
    });

    it("forget --proposal clears that proposal's fields only; a proposal never seen still gets its deletion record", async () => {
      const store = await open();
      await store.recordAnswer(await claimed(store, 'P1', { file: 'p1.json' }), { ...answerOf('rejected', null, 422), erros: [{ codigo: 'SVC_V00305', msg: 'chave 52998224725' }] });
      await store.recordAnswer(await claimed(store, 'P2', { file: 'p2.json' }), answerOf('rejected', null, 422));
      const report = await store.forget({ target: { kind: 'proposal', idProposta: 'P1' }, dryRun: false, at: new Date().toISOString(), by: null });
      expect(report).toMatchObject({ proposals: ['P1'], contracts: [], rows: { submissions: 1, answers: 1, results: 0, deliveries: 0 } });
      const dump = await record.dump();
      expect(dump).not.toContain('52998224725');
      expect(dump).not.toContain('p1.json');
      expect(dump).toContain('p2.json');
      const none = await store.forget({ target: { kind: 'proposal', idProposta: 'P-unknown' }, dryRun: false, at: new Date().toISOString(), by: null });
      expect(none).toMatchObject({ proposals: ['P-unknown'], rows: { submissions: 0, answers: 0, results: 0, deliveries: 0 }, deletion: { kind: 'proposal', rows: 0 } });
      expect(await record.count('deletions')).toBe(2);
    });

    it('a run: its id once, its inputs as they come with what their submissions came to, its counts; last is the newest', async () => {
      const [store, other] = [await open(), await open()];
      const start = runOf('r-20261127-1700-a3f');
      expect(await store.startRun(start)).toBe(true);
      expect(await other.startRun(start)).toBe(false);
      const approved = await claimed(store, 'P1', { run: start.id });
      const denied = await claimed(store, 'P2', { run: start.id });
      const rejected = await claimed(store, 'P3', { run: start.id });
      const unanswered = await claimed(store, 'P4', { run: start.id });
      const released = await claimed(store, 'P5', { run: start.id });
      await store.recordAnswer(approved, answerOf('accepted', 'C-1'));
      await store.recordAnswer(denied, answerOf('accepted', 'C-2'));
      await store.recordAnswer(rejected, answerOf('rejected', null, 422));
      await store.recordAnswer(released, answerOf('skipped', null, null));
      await store.recordResult({ idContrato: 'C-1', at: new Date().toISOString(), outcome: 'approved', status: 'APROVADO', reason: null });
      await store.recordResult({ idContrato: 'C-2', at: new Date().toISOString(), outcome: 'denied', status: 'REPROVADO', reason: 'margem' });
      const sent = (ref: string, id: string, row: number | null = null) => ({ file: 'lote.csv', row, idProposta: id, outcome: 'sent', ref, reason: null });
      await store.recordRunInputs(start.id, [sent(approved, 'P1', 2), sent(denied, 'P2', 3), sent(rejected, 'P3', 4)]);
      await store.recordRunInputs(start.id, [
        sent(unanswered, 'P4'),
        sent(released, 'P5'),
        { file: 'bad.json', row: null, idProposta: null, outcome: 'invalid', ref: null, reason: 'cpf: check digit' },
        { file: 'p6.json', row: null, idProposta: 'P6', outcome: 'skipped', ref: null, reason: null },
      ]);
      const inputs = await other.runInputs(start.id);
      expect(inputs.map((i) => [i.idProposta, i.effective, i.result?.outcome ?? null])).toEqual([
        ['P1', 'accepted', 'approved'],
        ['P2', 'accepted', 'denied'],
        ['P3', 'rejected', null],
        ['P4', 'unknown', null],
        ['P5', 'not_sent', null],
        [null, 'invalid', null],
        ['P6', 'skipped', null],
      ]);
      expect(inputs[0]).toMatchObject({ file: 'lote.csv', row: 2, idContrato: 'C-1' });
      expect(inputs[1]?.result?.reason).toBe('margem');
      expect(inputs[2]?.erros[0]?.codigo).toBe('SVC_X');
      expect(inputs[5]?.reason).toBe('cpf: check digit');
      expect((await store.submission(approved))?.run).toBe(start.id);
      // Parts of a run: what needs a person (denied, unknown), what is still due (none here), the counts alone.
      const needs = await other.runNeeds(start.id, new Date(Date.now() + 60_000).toISOString());
      expect(needs.needing.map((i) => i.idProposta)).toEqual(['P2', 'P4']);
      expect(needs.needing[0]?.result?.reason).toBe('margem');
      expect(needs.counts.reduce((n, c) => n + c.n, 0)).toBe(7);
      expect(await other.runInputs(start.id, { kind: 'pending' })).toEqual([]);

      await store.startRun({ ...runOf('r-20261127-1800-b00'), profile: 'homolog', startedAt: '2026-11-27T18:00:00.000Z' });
      await store.endRun(start.id, new Date().toISOString());
      const [newest, first] = await other.runs({ limit: 10 });
      expect(newest?.run.id).toBe('r-20261127-1800-b00');
      expect(newest?.counts).toEqual([]);
      expect(first?.run).toMatchObject({ id: start.id, command: start.command, by: start.by, pid: start.pid });
      expect(first?.run.endedAt).not.toBeNull();
      const count = (effective: string, result: string | null = null) => first?.counts.find((c) => c.effective === effective && c.result === result)?.n;
      expect([count('accepted', 'approved'), count('accepted', 'denied'), count('rejected'), count('unknown'), count('not_sent'), count('invalid'), count('skipped')]).toEqual([1, 1, 1, 1, 1, 1, 1]);
      expect((await other.runs({ limit: 10, profile: 'homolog' })).map((r) => r.run.id)).toEqual(['r-20261127-1800-b00']);
      expect((await other.runs({ limit: 1 })).map((r) => r.run.id)).toEqual(['r-20261127-1800-b00']);
      expect((await other.run('last'))?.id).toBe('r-20261127-1800-b00');
      expect(await other.run('r-none')).toBeNull();
      const lease = new Date(Date.now() + 60_000).toISOString();
      await store.renewRun('r-20261127-1800-b00', lease);
      const renewed = await other.run('r-20261127-1800-b00');
      expect(Date.parse(renewed!.leaseUntil)).toBe(Date.parse(lease));
      expect(Date.parse(renewed!.readAt)).toBeLessThan(Date.parse(lease));
    });

    it('history reports a row it cannot read and shows the others', async () => {
      const store = await open();
      for (const id of ['P1', 'P2']) await store.recordAnswer(await claimed(store, id), answerOf('rejected', null, 422));
      await record.damageFirstAnswer();
      const page = await store.history({ limit: 20 });
      expect(page.entries.map((e) => e.idProposta)).toEqual(['P2']);
      expect(page.unreadable).toHaveLength(1);
      expect(page.unreadable[0]).toMatch(/submission /);
    });
  });
}
