import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/record/sqlite.js';
import { type AnswerRecord, type ClaimRequest, holdsProposal } from '../../../src/record/record.js';
import { StorageError } from '../../../src/settings/home.js';

let home: string;
const open: SqliteStore[] = [];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'econsig-store-'));
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  rmSync(home, { recursive: true, force: true });
});

async function openStore(at = home): Promise<SqliteStore> {
  const store = await SqliteStore.open(at);
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

describe('SqliteStore', () => {
  it('creates econsig.db 0600 in a 0700 folder, and opens it again', async () => {
    const nested = join(home, 'nested');
    const store = await openStore(nested);
    await store.close();
    expect(statSync(nested).mode & 0o777).toBe(0o700);
    expect(statSync(join(nested, 'econsig.db')).mode & 0o777).toBe(0o600);
    await openStore(nested);
  });

  it('claims a free proposal once; the second claim is held by the first', async () => {
    const store = await openStore();
    const first = await store.claim(claimOf('P1'));
    expect(first.kind).toBe('claimed');
    const second = await store.claim(claimOf('P1'));
    expect(second.kind).toBe('held');
    if (second.kind === 'held' && first.kind === 'claimed') {
      expect(second.earlier.ref).toBe(first.ref);
      expect(second.earlier.answer).toBeNull();
    }
    // Another service is another guard.
    expect((await store.claim(claimOf('P1', { baseUrl: 'https://homolog.example' }))).kind).toBe('claimed');
  });

  it('claims made in the same turn share a transaction and still see each other', async () => {
    const store = await openStore();
    const all = await Promise.all([store.claim(claimOf('P1')), store.claim(claimOf('P1')), store.claim(claimOf('P2'))]);
    expect(all.map((c) => c.kind)).toEqual(['claimed', 'held', 'claimed']);
  });

  it.each([
    ['rejected', null, false],
    ['not_found', null, false],
    ['unauthorized', null, false],
    ['unknown', null, true],
    ['accepted', 'C-1', true],
  ])('an answer %s leaves the proposal held: %s', async (outcome, contract, held) => {
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
    const store = await openStore();
    const first = await store.claim(claimOf('P1'));
    if (first.kind !== 'claimed') throw new Error('not claimed');
    await store.recordAnswer(first.ref, answer('accepted', 'C-1'));
    const forced = await store.claim(claimOf('P1', { force: true }));
    expect(forced.kind).toBe('claimed');
    if (forced.kind !== 'claimed') return;
    expect(forced.overridden?.answer?.idContrato).toBe('C-1');
    await store.recordAnswer(forced.ref, answer('rejected', null, 422));
    const third = await store.claim(claimOf('P1'));
    expect(third.kind).toBe('held');
    if (third.kind === 'held') expect(third.earlier.answer?.idContrato).toBe('C-1');
  });

  it('a delivery is stored once: the same webhook-id or the same body is a duplicate', async () => {
    const store = await openStore();
    const d = { receivedAt: new Date().toISOString(), webhookId: 'w1', bodyHash: 'b1', idContrato: 'C-9', idProposta: 'P9', status: 'APROVADO', outcome: 'approved' as const, reason: null, verified: null, payload: '{}' };
    expect(await store.recordDelivery(d)).toBe('stored');
    expect(await store.recordDelivery({ ...d, bodyHash: 'b2' })).toBe('duplicate');
    expect(await store.recordDelivery({ ...d, webhookId: 'w2' })).toBe('duplicate');
    expect(await store.recordDelivery({ ...d, webhookId: null, bodyHash: 'b3' })).toBe('stored');
    expect((await store.resultOf('C-9'))?.outcome).toBe('approved');
    // Two processes on one home: the unique constraint holds across connections.
    const other = await openStore();
    expect(await other.recordDelivery({ ...d, webhookId: 'w1', bodyHash: 'b4' })).toBe('duplicate');
  });

  it('follows results recorded by another connection after it started', async () => {
    const store = await openStore();
    const other = await openStore();
    await other.recordResult({ idContrato: 'C-old', at: 'x', outcome: 'approved', status: null, reason: null });
    const seen: string[] = [];
    const stop = new AbortController();
    await store.followResults((r) => seen.push(r.idContrato), { signal: stop.signal, intervalMs: 10 });
    await other.recordResult({ idContrato: 'C-new', at: 'x', outcome: 'denied', status: null, reason: 'no' });
    await expect.poll(() => seen, { timeout: 2_000 }).toEqual(['C-new']);
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
    expect(page.more).toBe(10);
    expect((await store.history({ idProposta: 'P3', limit: 20 })).entries.map((e) => e.answer?.erros[0]?.codigo)).toEqual(['SVC_X']);
    expect((await store.history({ idContrato: 'C-4', limit: 20 })).entries.map((e) => e.idProposta)).toEqual(['P4']);
    expect((await store.history({ outcome: 'rejected', limit: 100 })).entries).toHaveLength(10);
    expect((await store.history({ since: '2026-01-01T00:00:25.000Z', limit: 100 })).entries).toHaveLength(5);
  });

  it('history reports a row it cannot read and shows the others', async () => {
    const store = await openStore();
    for (const id of ['P1', 'P2']) {
      const c = await store.claim(claimOf(id));
      if (c.kind !== 'claimed') throw new Error('not claimed');
      await store.recordAnswer(c.ref, answer('rejected', null, 422));
    }
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(home, 'econsig.db'));
    db.exec("UPDATE answers SET erros = '{not json' WHERE submission_id = 1");
    db.close();
    const page = await store.history({ limit: 20 });
    expect(page.entries.map((e) => e.idProposta)).toEqual(['P2']);
    expect(page.unreadable).toHaveLength(1);
    expect(page.unreadable[0]).toMatch(/submission /);
  });

  it('a folder where the database should be is a storage error naming the path (exit 74)', async () => {
    mkdirSync(join(home, 'econsig.db'));
    const error = await SqliteStore.open(home).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).exitCode).toBe(74);
    expect((error as StorageError).code).toBe('EISDIR');
    expect((error as StorageError).message).toContain(join(home, 'econsig.db'));
  });

  it('a file that is not a database is reported as corrupt (exit 74)', async () => {
    writeFileSync(join(home, 'econsig.db'), 'this is not sqlite, just text long enough to have a header'.repeat(20));
    const error = await SqliteStore.open(home).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('CORRUPT');
  });
});
