import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWatchSession } from '../../../src/flows/watch-session.js';
import { SqliteStore } from '../../../src/record/sqlite.js';

let home: string;
let store: SqliteStore;
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'econsig-watch-session-'));
  store = await SqliteStore.open(home);
});
afterEach(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

const result = (idContrato: string, status: string) =>
  JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato, idProposta: 'PROP-1001', status, motivo: null, dataHora: new Date().toISOString() });

function session(options: { contract?: string; timeoutMs?: number; signal?: AbortSignal; onListening?: (url: string) => void }) {
  return runWatchSession({
    store,
    listener: { host: '127.0.0.1', port: 0, path: '/webhook' },
    contract: options.contract === undefined ? undefined : { idContrato: options.contract, timeoutMs: options.timeoutMs ?? 10_000 },
    signal: options.signal ?? new AbortController().signal,
    onListening: options.onListening ?? (() => undefined),
    onEvent: () => undefined,
  });
}

async function post(url: string, body: string): Promise<number> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, headersTimeout: 5000, bodyTimeout: 5000 });
  await res.body.dump();
  return res.statusCode;
}

describe('runWatchSession', () => {
  it('ends with the contract\'s result delivered to its listener; other contracts do not end it', async () => {
    const end = session({
      contract: 'C-1',
      onListening: (url) => {
        void (async () => {
          expect(await post(url, result('C-OTHER', 'APROVADO'))).toBe(200);
          expect(await post(url, result('C-1', 'REPROVADO'))).toBe(200);
        })();
      },
    });
    // The source is not asserted: the store's follower may see the row before the listener reports it.
    expect(await end).toMatchObject({ reason: 'result', result: { idContrato: 'C-1', outcome: 'denied', status: 'REPROVADO' } });
  });

  it('ends at once with a result already in the store (source store)', async () => {
    await store.recordResult({ at: new Date().toISOString(), idContrato: 'C-2', outcome: 'approved', status: 'APROVADO', reason: null });
    expect(await session({ contract: 'C-2' })).toMatchObject({ reason: 'result', result: { idContrato: 'C-2', outcome: 'approved', source: 'store' } });
  });

  it('ends with timeout when the result does not come, and stopped when the signal aborts', async () => {
    expect(await session({ contract: 'C-3', timeoutMs: 50 })).toMatchObject({ reason: 'timeout' });
    const stop = new AbortController();
    expect(await session({ signal: stop.signal, onListening: () => stop.abort() })).toMatchObject({ reason: 'stopped', stats: expect.any(Object) });
  });
});
