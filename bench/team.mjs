// The team store (issue 15), through the built binary and a throwaway local PostgreSQL
// (test/e2e/postgres.ts, fsync on: commits are as durable as in production):
// 1. Receiver: `econsig watch` in a child process, autocannon at 8 connections for 10 s with
//    unique ~1 KiB bodies, into PostgreSQL and, side by side, into SQLite. Zero lost = every
//    2xx is a stored row. Goal: >= 3,000 deliveries/s into PostgreSQL, p99 < 20 ms.
// 2. Delivery -> a waiting process on another home: 200 contracts, each awaited by an
//    `econsig watch --contract <id>` in another ECONSIG_HOME with no listener (the store
//    follow path `submit --wait` uses with a team store: LISTEN/NOTIFY). Measured from the
//    receiver's 2xx to the waiting process's result line. Goal: p99 < 1 s.
// 3. Ten homes submitting the same 100 proposals at once (sandbox in this process, counting
//    POSTs per proposal). Goal: each POSTed once.
// Run alone: `node bench/team.mjs` (after `npm run build`). Needs PostgreSQL's server
// binaries (apt-get install postgresql); skipped with a note when they are missing.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { request } from 'undici';
import { bin, root } from './lib.mjs';

const DIST = pathToFileURL(join(root, 'dist/'));

function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** `econsig <args>` as a child; `lines` collects stdout lines with the time each was read. */
function econsig(args, env) {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: '1', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  let buf = '';
  let stderr = '';
  let wake = () => {};
  child.stdout.on('data', (d) => {
    const at = performance.now();
    buf += d;
    const parts = buf.split('\n');
    buf = parts.pop();
    for (const p of parts) if (p) lines.push({ at, line: p });
    wake();
  });
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const line = async (i, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (lines.length <= i) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`econsig ${args.join(' ')}: no line ${i}; stderr: ${stderr}`);
      await new Promise((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
    return lines[i];
  };
  return { child, lines, line, exit, stderr: () => stderr };
}

function body() {
  const id = randomUUID();
  return JSON.stringify({
    evento: 'RESULTADO_PROPOSTA',
    idContrato: id,
    idProposta: `PROP-${id.slice(0, 8)}`,
    status: Math.random() < 0.7 ? 'APROVADO' : 'REPROVADO',
    motivo: null,
    dataHora: new Date().toISOString(),
    detalhes: 'x'.repeat(850),
  });
}

async function countSqlite(home) {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(join(home, 'econsig.db'), { readOnly: true });
  try {
    return Number(db.prepare('SELECT count(*) AS n FROM deliveries').get().n);
  } finally {
    db.close();
  }
}

/** One receiver run: `store` is 'postgres' (with `url`) or 'sqlite'. */
export async function receiverRun({ store, url, pg, database, seconds, connections }) {
  const home = tempDir('econsig-bench-receiver-');
  const watch = econsig(['watch', '--port', '0', '--json'], { ECONSIG_HOME: home, ...(store === 'postgres' ? { ECONSIG_DATABASE_URL: url } : {}) });
  try {
    const { url: webhook } = JSON.parse((await watch.line(0)).line);
    // Stdout carries a line per delivery: drop them as they come (only the first was needed).
    watch.child.stdout.removeAllListeners('data');
    watch.child.stdout.resume();
    const result = await autocannon({
      url: webhook,
      connections,
      duration: seconds,
      requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: body() }) }],
    });
    watch.child.kill('SIGTERM');
    await watch.exit;
    const stored = store === 'postgres' ? Number((await pg.psql('SELECT count(*) FROM econsig_deliveries', database)).trim()) : await countSqlite(home);
    const ok = result['2xx'];
    return {
      store,
      connections,
      perSecond: Math.round(ok / seconds),
      p50ms: result.latency.p50,
      p99ms: result.latency.p99,
      ok2xx: ok,
      non2xx: result.non2xx,
      errors: result.errors,
      stored,
      // Every 2xx is a stored row; a request cut when autocannon stopped may be stored without its 2xx counted.
      lost: Math.max(0, ok - stored),
    };
  } finally {
    if (watch.child.exitCode === null) watch.child.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  }
}

/** 200 contracts, each awaited by a watch --contract in another home (batches of `batch` processes). */
async function latencyRun({ url, total = 200, batch = 20 }) {
  const receiverHome = tempDir('econsig-bench-recv-');
  const receiver = econsig(['watch', '--port', '0', '--json'], { ECONSIG_HOME: receiverHome, ECONSIG_DATABASE_URL: url });
  const waitHome = tempDir('econsig-bench-desk-');
  const latencies = [];
  let failures = 0;
  try {
    const { url: webhook } = JSON.parse((await receiver.line(0)).line);
    for (let done = 0; done < total; done += batch) {
      const ids = Array.from({ length: Math.min(batch, total - done) }, () => `C-${randomUUID()}`);
      const waiters = ids.map((id) => econsig(['watch', '--json', '--contract', id, '--timeout', '60'], { ECONSIG_HOME: waitHome, ECONSIG_DATABASE_URL: url }));
      // Each says `following` once the store is followed.
      await Promise.all(waiters.map((w) => w.line(0, 60_000)));
      for (const [i, id] of ids.entries()) {
        const payload = JSON.stringify({ idContrato: id, status: 'APROVADO', dataHora: new Date().toISOString() });
        const res = await request(webhook, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } });
        await res.body.dump();
        const acked = performance.now();
        if (res.statusCode !== 200) failures++;
        waiters[i].acked = acked;
        await new Promise((r) => setTimeout(r, 25));
      }
      for (const w of waiters) {
        try {
          const { at } = await w.line(1, 10_000);
          latencies.push(at - w.acked);
        } catch {
          failures++;
        }
        await w.exit;
      }
    }
  } finally {
    receiver.child.kill('SIGTERM');
    await receiver.exit;
    rmSync(receiverHome, { recursive: true, force: true });
    rmSync(waitHome, { recursive: true, force: true });
  }
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { count: latencies.length, failures, p50ms: Math.round(pct(50)), p99ms: Math.round(pct(99)), maxms: Math.round(latencies.at(-1) ?? NaN) };
}

/** Ten homes, the same 100 proposals, started at once; the sandbox counts POSTs per proposal. */
async function guardRun({ url, homes = 10, proposals = 100 }) {
  const { startSandbox } = await import(new URL('sandbox/server.js', DIST).href);
  const ids = Array.from({ length: proposals }, (_, i) => `PROP-${7001 + i}`);
  const cpf = (i) => String(91_000_000_000 + i);
  const catalogue = {
    workers: ids.map((_, i) => ({ cpf: cpf(i), name: `Worker ${i}` })),
    proposals: ids.map((idProposta, i) => ({ idProposta, workerCpf: cpf(i), outcome: 'approved' })),
    pixKeys: [],
  };
  const posts = new Map();
  const sandbox = await startSandbox({
    port: 0,
    delayMs: 600_000,
    catalogue,
    onLog: (e) => {
      if (e.event === 'request' && e.idProposta) posts.set(e.idProposta, (posts.get(e.idProposta) ?? 0) + 1);
    },
  });
  const files = tempDir('econsig-bench-files-');
  const bankOnly = JSON.parse((await import('node:fs')).readFileSync(join(root, 'fixtures/valid/bank-only.json'), 'utf8'));
  for (const id of ids) writeFileSync(join(files, `${id}.json`), JSON.stringify({ ...bankOnly, idProposta: id }));
  const dirs = Array.from({ length: homes }, () => tempDir('econsig-bench-home-'));
  const started = performance.now();
  try {
    const runs = dirs.map((home) =>
      econsig(['submit', files, '--json', '--concurrency', '8'], { ECONSIG_HOME: home, ECONSIG_DATABASE_URL: url, ECONSIG_BASE_URL: sandbox.url, ECONSIG_TOKEN: sandbox.token }),
    );
    const codes = await Promise.all(runs.map((r) => r.exit));
    const counts = ids.map((id) => posts.get(id) ?? 0);
    return {
      homes,
      proposals,
      seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      postedOnce: counts.filter((c) => c === 1).length,
      postedTwice: counts.filter((c) => c > 1).length,
      neverPosted: counts.filter((c) => c === 0).length,
      exitCodes: [...new Set(codes)].sort(),
    };
  } finally {
    await sandbox.close();
    for (const d of [...dirs, files]) rmSync(d, { recursive: true, force: true });
  }
}

export async function benchTeam({ seconds = Number(process.env.BENCH_SECONDS ?? 10) } = {}) {
  let postgres;
  try {
    postgres = await import(pathToFileURL(join(root, 'test/e2e/postgres.ts')).href);
  } catch (error) {
    return { skipped: `cannot load the PostgreSQL harness: ${error.message}` };
  }
  if (!postgres.findPostgresBin()) return { skipped: 'PostgreSQL is not installed (apt-get install postgresql)' };
  const pg = await postgres.startPostgres({ fsync: true, maxConnections: 200 });
  try {
    const receiver = [];
    const pgUrl = await pg.createDatabase('bench_receiver');
    receiver.push(await receiverRun({ store: 'postgres', url: pgUrl, pg, database: 'bench_receiver', seconds, connections: 8 }));
    receiver.push(await receiverRun({ store: 'sqlite', seconds, connections: 8 }));
    // For reading the figures: the same run with PostgreSQL not flushing its WAL (not a way
    // to run it), which shows how much of the time is the disk's commit latency.
    await pg.psql('ALTER SYSTEM SET fsync = off');
    await pg.psql('SELECT pg_reload_conf()');
    const noSync = await receiverRun({ store: 'postgres', url: await pg.createDatabase('bench_nosync'), pg, database: 'bench_nosync', seconds, connections: 8 });
    receiver.push({ ...noSync, store: 'postgres, fsync off' });
    await pg.psql('ALTER SYSTEM SET fsync = on');
    await pg.psql('SELECT pg_reload_conf()');
    const latency = await latencyRun({ url: await pg.createDatabase('bench_latency') });
    const guard = await guardRun({ url: await pg.createDatabase('bench_guard') });
    return { receiver, latency, guard, load: (await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ') };
  } finally {
    await pg.stop();
  }
}

export function printTeam(r) {
  console.log('\n## team store: receiver into PostgreSQL vs SQLite, delivery -> waiting process, guard across 10 homes');
  if (r.skipped) {
    console.log(`skipped: ${r.skipped}`);
    return;
  }
  const head = ['store', 'conns', 'deliveries/s', 'p50 ms', 'p99 ms', '2xx', 'non-2xx', 'errors', 'stored', 'lost'];
  const data = r.receiver.map((x) => [x.store, x.connections, x.perSecond, x.p50ms, x.p99ms, x.ok2xx, x.non2xx, x.errors, x.stored, x.lost]);
  const widths = head.map((h, i) => Math.max(h.length, ...data.map((d) => String(d[i]).length)));
  const fmt = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
  console.log(fmt(head));
  for (const d of data) console.log(fmt(d));
  const pgRow = r.receiver.find((x) => x.store === 'postgres');
  console.log(`(load average when it ended: ${r.load}; the machine is shared, read the ratios)`);
  console.log(
    `goal >= 3,000/s at c=8 into PostgreSQL, zero lost, p99 < 20 ms: ${pgRow.perSecond >= 3000 && pgRow.lost === 0 && pgRow.p99ms < 20 ? 'met' : 'NOT met'} (${pgRow.perSecond}/s, lost ${pgRow.lost}, p99 ${pgRow.p99ms} ms)`,
  );
  const l = r.latency;
  console.log(`delivery -> waiting process on another home (watch --contract, no listener), ${l.count} contracts: p50 ${l.p50ms} ms, p99 ${l.p99ms} ms, max ${l.maxms} ms, failures ${l.failures}`);
  console.log(`goal p99 < 1 s over 200: ${l.p99ms < 1000 && l.count >= 200 && l.failures === 0 ? 'met' : 'NOT met'}`);
  const g = r.guard;
  console.log(`${g.homes} homes x the same ${g.proposals} proposals at once (${g.seconds} s): POSTed once ${g.postedOnce}, twice or more ${g.postedTwice}, never ${g.neverPosted}; exit codes ${g.exitCodes.join(',')}`);
  console.log(`goal each POSTed once: ${g.postedOnce === g.proposals ? 'met' : 'NOT met'}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchTeam();
  printTeam(r);
}
