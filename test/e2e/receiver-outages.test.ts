/**
 * The receiver shows every delivery it stored, once (issue 22), through the built binary:
 * `watch --json --forward-to` on a throwaway PostgreSQL that is stopped mid-stream
 * (`pg_ctl stop -m immediate`: commits in flight cut off) or whose deliveries table is locked
 * past the client's query timeout (statements that commit after their answer was given up),
 * with a sender that retries every delivery until it gets a 2xx. Each delivery must be one
 * `result` line and one forward. And GET /readyz: 503 while deliveries cannot be stored (the
 * database stopped, a full disk), 200 again when they can.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../wait-for.js';
import { havePostgres, type PgCluster, startPostgres } from './postgres.js';
import { killWatches, startWatch, type WatchProcess } from './watch-process.js';

/**
 * Deliveries per stream: enough for an outage to fall mid-stream, few enough for a test well
 * under a minute (the 20,000 by hand: ECONSIG_OUTAGE_DELIVERIES=20000).
 */
const N = Number(process.env.ECONSIG_OUTAGE_DELIVERIES ?? 2_000);
/** How long a stream may take, at most: the tests' bound, not a measure. */
const STREAM_MS = 120_000 * Math.max(1, N / 2_000);

const homes: string[] = [];
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'econsig-e2e-outage-'));
  homes.push(dir);
  return dir;
}

const body = (idContrato: string) =>
  JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato, idProposta: 'PROP-1001', status: 'APROVADO', motivo: null, dataHora: '2026-11-24T08:00:00.000Z' });

async function get(url: string): Promise<number> {
  const res = await request(url, { headersTimeout: 10_000 });
  await res.body.dump();
  return res.statusCode;
}

/** What a sender saw: 2xx per delivery (each once, then it stops), and every other answer or failure. */
interface Sending {
  delivered: number;
  failed: number;
  done: Promise<void>;
}

/**
 * A provider: N deliveries (`C-<i>`, webhook-id `msg-<i>`), `concurrency` at a time, each
 * POSTed again after any answer but a 2xx (a 503, a timeout, a refused connection) until one
 * comes. Bounded: a delivery not through within STREAM_MS fails the test.
 */
function send(url: string, { concurrency = 8, timeoutMs = 10_000 } = {}): Sending {
  const agent = new Agent({ connections: concurrency, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const state = { delivered: 0, failed: 0 };
  let next = 0;
  const deadline = Date.now() + STREAM_MS;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < N; i = next++) {
      const text = body(`C-${i}`);
      for (;;) {
        if (Date.now() > deadline) throw new Error(`C-${i} not delivered within ${STREAM_MS / 1000} s`);
        try {
          const res = await request(url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', 'webhook-id': `msg-${i}` }, dispatcher: agent });
          await res.body.dump();
          if (res.statusCode >= 200 && res.statusCode < 300) break;
        } catch {
          // A timeout or a refused connection: sent again, as a provider does.
        }
        state.failed++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      state.delivered++;
    }
  };
  const done = Promise.all(Array.from({ length: concurrency }, worker)).then(async () => void (await agent.close()));
  return {
    get delivered() {
      return state.delivered;
    },
    get failed() {
      return state.failed;
    },
    done,
  };
}

/** A --forward-to target counting what it got, by contract. */
async function forwardTarget(): Promise<{ url: string; counts: Map<string, number>; close: () => Promise<void> }> {
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = (JSON.parse(Buffer.concat(chunks).toString()) as { idContrato: string }).idContrato;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** How many `result` lines the receiver wrote per contract. */
function linesPerContract(watch: WatchProcess): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of watch.lines) {
    const event = JSON.parse(line) as { event: string; idContrato?: string };
    if (event.event === 'result' && event.idContrato) counts.set(event.idContrato, (counts.get(event.idContrato) ?? 0) + 1);
  }
  return counts;
}

/** Each of the N contracts exactly once in `counts`. */
function expectEachOnce(counts: Map<string, number>, what: string): void {
  const wrong = Array.from({ length: N }, (_, i) => `C-${i}`).filter((id) => counts.get(id) !== 1);
  expect(wrong.map((id) => `${id}: ${counts.get(id) ?? 0}`), what).toEqual([]);
  expect(counts.size, what).toBe(N);
}

afterEach(() => killWatches());
afterAll(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!havePostgres())('the receiver on a team store that fails mid-stream shows each delivery once', () => {
  let cluster: PgCluster;
  let n = 0;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  /** Once the stream is through: the receiver stops cleanly, each delivery one line and one forward, every row marked shown. */
  async function expectEachShownOnce(sending: Sending, watch: WatchProcess, forwards: Map<string, number>, database: string): Promise<void> {
    await sending.done;
    expect(await watch.stop()).toBe(0);
    expectEachOnce(linesPerContract(watch), 'result lines');
    expectEachOnce(forwards, 'forwards');
    expect((await cluster.psql('SELECT count(*), count(unshown_since) FROM econsig_deliveries', database)).trim()).toBe(`${N}|0`);
  }

  it(`the database stopped (immediate) and started again under ${N} deliveries: each shown once, forwarded once; /readyz 503 while it is down`, async () => {
    const database = `outage_${++n}`;
    const url = await cluster.createDatabase(database);
    const target = await forwardTarget();
    const watch = startWatch(['--port', '0', '--json', '--forward-to', target.url], { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: url });
    try {
      const webhook = await watch.url();
      const readyz = webhook.replace('/webhook', '/readyz');
      const sending = send(webhook);
      await waitFor(() => sending.delivered >= N / 4, STREAM_MS);
      await cluster.crash();
      await waitFor(() => sending.failed >= 8, 30_000);
      expect(await get(readyz)).toBe(503);
      await cluster.resume();
      await waitFor(async () => (await get(readyz)) === 200, 30_000);
      await expectEachShownOnce(sending, watch, target.counts, database);
    } finally {
      await target.close();
    }
  }, STREAM_MS + 60_000);

  it(`the deliveries table locked past the client's query timeout under ${N} deliveries: what committed late is shown on its retry, each once`, async () => {
    const database = `outage_${++n}`;
    const url = await cluster.createDatabase(database);
    const target = await forwardTarget();
    const watch = startWatch(['--port', '0', '--json', '--forward-to', target.url], { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: url });
    const locker = new pg.Client({ connectionString: url });
    try {
      const webhook = await watch.url();
      await locker.connect();
      const sending = send(webhook);
      await waitFor(() => sending.delivered >= N / 4, STREAM_MS);
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE econsig_deliveries IN ACCESS EXCLUSIVE MODE');
      // More of the receiver's statements wait on the lock than its pool holds: some were given up
      // at the query timeout (15 s) and left waiting at the server, to commit once the lock goes.
      // (Asked on connections of their own: a transaction sees pg_stat_activity as it first read it.)
      const waiting = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'econsig' AND wait_event_type = 'Lock'";
      await waitFor(async () => Number(await cluster.psql(waiting, database)) > 8, 45_000);
      await locker.query('COMMIT');
      await expectEachShownOnce(sending, watch, target.counts, database);
    } finally {
      await locker.end().catch(() => undefined);
      await target.close();
    }
  }, STREAM_MS + 60_000);
});

const root = process.getuid?.() === 0;

describe.skipIf(!root)('GET /readyz on a full disk (SQLite; a small tmpfs, so as root)', () => {
  let mount: string;
  beforeAll(() => {
    mount = mkdtempSync(join(tmpdir(), 'econsig-e2e-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', mount]);
  });
  afterAll(() => {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it('503 with the deliveries while nothing can be written; the same delivery stored and shown once, and ready again, when space comes back', async () => {
    const econsigHome = join(mount, 'home');
    mkdirSync(econsigHome, { mode: 0o700 });
    const watch = startWatch(['--port', '0', '--json'], { ECONSIG_HOME: econsigHome });
    const webhook = await watch.url();
    const readyz = webhook.replace('/webhook', '/readyz');
    const post = async (id: string): Promise<number> => {
      const res = await request(webhook, { method: 'POST', body: body(id), headers: { 'content-type': 'application/json' } });
      await res.body.dump();
      return res.statusCode;
    };
    expect(await post('C-BEFORE')).toBe(200);
    expect(await get(readyz)).toBe(200);

    // Everything left on the file system taken by one file.
    const filler = join(mount, 'filler');
    const fd = openSync(filler, 'w');
    for (const size of [65_536, 4_096, 512]) {
      try {
        for (;;) writeSync(fd, Buffer.alloc(size));
      } catch {
        // ENOSPC at this size: go on with a smaller one.
      }
    }
    closeSync(fd);
    expect(await get(readyz)).toBe(503);
    const refused = await Promise.all(Array.from({ length: 20 }, (_, i) => post(`C-FULL-${i}`)));
    expect(refused.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(await get(readyz)).toBe(503);

    rmSync(filler);
    // The sender's retries: stored now, and the store is ready again.
    expect(await Promise.all(Array.from({ length: 20 }, (_, i) => post(`C-FULL-${i}`)))).toEqual(Array(20).fill(200));
    expect(await get(readyz)).toBe(200);
    expect(await watch.stop()).toBe(0);
    const counts = linesPerContract(watch);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    expect(counts.size).toBe(21);
  });
});
