/**
 * The PostgreSQL team store against a real PostgreSQL (test/e2e/postgres.ts starts a
 * throwaway cluster): the same contract as the SQLite store, plus what only a shared
 * database has (claims and deliveries from many connections at once, LISTEN/NOTIFY,
 * schema versions, a database that goes away and comes back, the password never shown).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../../src/record/postgres.js';
import { type AnswerRecord, type ClaimRequest, holdsProposal } from '../../../src/record/record.js';
import { havePostgres, type PgCluster, startPostgres } from '../../e2e/postgres.js';
import type { DeliveryRecord } from '../../../src/webhook/delivery.js';
import { StorageError } from '../../../src/settings/home.js';

let pg: PgCluster;
let url: string;
let n = 0;
const open: PostgresStore[] = [];

describe.skipIf(!havePostgres())('PostgresStore', () => {
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });
  beforeEach(async () => {
    url = await pg.createDatabase(`store_${++n}`);
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  async function openStore(at = url): Promise<PostgresStore> {
    const store = await PostgresStore.open(at);
    open.push(store);
    return store;
  }

  const claimOf = (idProposta: string, extra: Partial<ClaimRequest> = {}): ClaimRequest => ({
    idProposta,
    baseUrl: 'http://127.0.0.1:4010',
    bodyHash: 'h1',
    file: `${idProposta}.json`,
    profile: 'default',
    at: new Date().toISOString(),
    force: false,
    ...extra,
  });
  const answer = (outcome: string, idContrato: string | null = null, httpStatus: number | null = 202): AnswerRecord => ({
    at: new Date().toISOString(),
    outcome,
    httpStatus,
    idContrato,
    erros: outcome === 'rejected' ? [{ codigo: 'SVC_X', msg: 'no' }] : [],
    message: outcome,
  });
  const delivery = (extra: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
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
  const now = () => new Date().toISOString();

  it('creates its schema with a version table, and opens it again without migrating', async () => {
    await (await openStore()).close();
    expect(await pg.psql('SELECT version FROM econsig_schema ORDER BY version', `store_${n}`)).toBe('1\n2\n');
    await openStore();
    expect(await pg.psql('SELECT count(*) FROM econsig_schema', `store_${n}`)).toBe('2\n');
  });

  it('several processes opening a new database at once migrate it once', async () => {
    const stores = await Promise.all(Array.from({ length: 5 }, () => openStore()));
    expect(stores).toHaveLength(5);
    expect(await pg.psql('SELECT count(*) FROM econsig_schema', `store_${n}`)).toBe('2\n');
  });

  it('refuses a schema newer than it knows, and leaves it untouched', async () => {
    await (await openStore()).close();
    await pg.psql("INSERT INTO econsig_schema (version, econsig) VALUES (99, '9.9.9')", `store_${n}`);
    const error = await PostgresStore.open(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).exitCode).toBe(74);
    expect((error as StorageError).message).toContain('schema is version 99, newer than this econsig knows (2)');
    expect((error as StorageError).hint).toContain('Upgrade econsig');
    expect(await pg.psql('SELECT max(version) FROM econsig_schema', `store_${n}`)).toBe('99\n');
  });

  it('claims a free proposal once; the second claim is held by the first; another service is another guard', async () => {
    const store = await openStore();
    const first = await store.claim(claimOf('P1'));
    expect(first.kind).toBe('claimed');
    const second = await store.claim(claimOf('P1'));
    expect(second.kind).toBe('held');
    if (second.kind === 'held' && first.kind === 'claimed') expect(second.earlier.ref).toBe(first.ref);
    expect((await store.claim(claimOf('P1', { baseUrl: 'https://homolog.example' }))).kind).toBe('claimed');
  });

  it('40 connections claiming 20 proposals at once: each proposal is claimed exactly once', async () => {
    const stores = await Promise.all(Array.from({ length: 5 }, () => openStore()));
    const claims = await Promise.all(
      stores.flatMap((s) => Array.from({ length: 20 }, (_, i) => s.claim(claimOf(`P${i}`)))).concat(
        stores.flatMap((s) => Array.from({ length: 20 }, (_, i) => s.claim(claimOf(`P${19 - i}`)))),
      ),
    );
    const won = claims.filter((c) => c.kind === 'claimed');
    expect(won).toHaveLength(20);
    expect(await pg.psql('SELECT count(*), count(DISTINCT id_proposta) FROM econsig_submissions', `store_${n}`)).toBe('20|20\n');
  });

  it.each([
    ['rejected', null, false],
    ['not_found', null, false],
    ['unknown', null, true],
    ['accepted', 'C-1', true],
  ])('an answer %s: the proposal stays held: %s', async (outcome, contract, held) => {
    const store = await openStore();
    const first = await store.claim(claimOf('P1'));
    if (first.kind !== 'claimed') throw new Error('not claimed');
    await store.recordAnswer(first.ref, answer(outcome, contract));
    expect((await store.claim(claimOf('P1'))).kind).toBe(held ? 'held' : 'claimed');
  });

  it('an approved contract holds the proposal; a denied one holds it against the same body only; a cancelled one frees it', async () => {
    const store = await openStore();
    for (const [proposal, outcome, held] of [
      ['P1', 'approved', true],
      ['P2', 'denied', true],
      ['P3', 'cancelled', false],
    ] as const) {
      const c = await store.claim(claimOf(proposal));
      if (c.kind !== 'claimed') throw new Error('not claimed');
      await store.recordAnswer(c.ref, answer('accepted', `C-${proposal}`));
      await store.recordResult({ idContrato: `C-${proposal}`, at: now(), outcome, status: null, reason: null });
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

  it('a delivery is stored once, across connections: same webhook-id or same body is a duplicate', async () => {
    const a = await openStore();
    const b = await openStore();
    const at = await Promise.all([a.recordDelivery(delivery()), b.recordDelivery(delivery()), a.recordDelivery(delivery({ bodyHash: 'b2' })), b.recordDelivery(delivery({ webhookId: 'w2' }))]);
    expect(at.filter((x) => x === 'stored')).toHaveLength(1);
    expect(await a.recordDelivery(delivery({ webhookId: null, bodyHash: 'b3' }))).toBe('stored');
    expect((await b.resultOf('C-9'))?.outcome).toBe('approved');
    expect(await pg.psql('SELECT count(*) FROM econsig_deliveries', `store_${n}`)).toBe('2\n');
  });

  it('deliveries arriving together: duplicates among them are found, each answer is its own', async () => {
    const store = await openStore();
    const batch = Array.from({ length: 50 }, (_, i) => delivery({ webhookId: `w${i % 20}`, bodyHash: `b${i}`, idContrato: `C-${i % 20}` }));
    const answers = await Promise.all(batch.map((d) => store.recordDelivery(d)));
    // Each on a connection of its own, committed in any order: one copy of each webhook-id is stored.
    for (let id = 0; id < 20; id++) expect(answers.filter((a, i) => i % 20 === id && a === 'stored'), `w${id}`).toHaveLength(1);
    expect(answers.filter((a) => a === 'duplicate')).toHaveLength(30);
    expect(await pg.psql('SELECT count(*) FROM econsig_deliveries', `store_${n}`)).toBe('20\n');
    expect(await pg.psql('SELECT count(*) FROM econsig_results', `store_${n}`)).toBe('20\n');
    // Close waits for the writes under way.
    const late = store.recordDelivery(delivery({ webhookId: 'late', bodyHash: 'late' }));
    await store.close();
    expect(await late).toBe('stored');
  });

  it('a field holding U+0000 (escaped in the JSON) is stored, not refused forever', async () => {
    const store = await openStore();
    expect(await store.recordDelivery(delivery({ idContrato: 'C-\u0000-1', payload: '{"idContrato":"C-\\u0000-1"}' }))).toBe('stored');
    expect((await store.resultOf('C-\uFFFD-1'))?.outcome).toBe('approved');
  });

  it('an unknown status is stored but is not a result', async () => {
    const store = await openStore();
    expect(await store.recordDelivery(delivery({ status: 'EM_ANALISE', outcome: 'unknown' }))).toBe('stored');
    expect(await store.resultOf('C-9')).toBeNull();
  });

  it('follows results recorded by another connection, announced within milliseconds (LISTEN/NOTIFY)', async () => {
    const store = await openStore();
    const other = await openStore();
    await other.recordResult({ idContrato: 'C-old', at: now(), outcome: 'approved', status: null, reason: null });
    const seen: Array<{ id: string; ms: number }> = [];
    const stop = new AbortController();
    // A poll every 10 s: only NOTIFY can bring the result within the wait below.
    await store.followResults((r) => seen.push({ id: r.idContrato, ms: Date.now() }), { signal: stop.signal, intervalMs: 10_000 });
    const sent = Date.now();
    await other.recordDelivery(delivery({ idContrato: 'C-new', outcome: 'denied', status: 'REPROVADO' }));
    await expect.poll(() => seen.map((s) => s.id), { timeout: 2_000, interval: 10 }).toEqual(['C-new']);
    expect(seen[0]!.ms - sent).toBeLessThan(1_000);
    stop.abort();
  });

  it('history filters with SQL, newest first, and counts how many more', async () => {
    const store = await openStore();
    for (let i = 0; i < 30; i++) {
      const c = await store.claim(claimOf(`P${i}`, { at: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z` }));
      if (c.kind !== 'claimed') throw new Error('not claimed');
      await store.recordAnswer(c.ref, i % 3 === 0 ? answer('rejected', null, 422) : answer('accepted', `C-${i}`));
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

  it('a wrong password: exit 74, the URL shown without any password', async () => {
    const wrong = url.replace(encodeURIComponent(pg.password), 'not-the-password-123');
    const error = await PostgresStore.open(wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    const e = error as StorageError;
    expect(e.code).toBe('28P01');
    expect(e.message).toContain(`postgres://econsig@127.0.0.1:${pg.port}/store_${n}`);
    const everything = `${e.message} ${e.hint} ${String((e.cause as Error)?.message)} ${e.stack}`;
    expect(everything).not.toContain('not-the-password-123');
    expect(everything).not.toContain(pg.password);
  });

  it('no database there: exit 74 with ECONNREFUSED and what to do', async () => {
    const error = await PostgresStore.open('postgres://econsig:sekret-pass@127.0.0.1:1/nowhere').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('ECONNREFUSED');
    expect((error as StorageError).hint).toContain('is up and reachable');
    expect(JSON.stringify({ m: (error as Error).message, h: (error as StorageError).hint })).not.toContain('sekret-pass');
  });
});
